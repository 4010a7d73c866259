// FoundationEssentials, not Foundation: the whole of Foundation links ICU in (44 MB more).
import FoundationEssentials

/// The box's health as the kernel reports it, for the operator's alerts (issue 44): the power
/// supply, the file systems and the SD or eMMC card. Each figure exists only where the board
/// has its file: no file, no series, no error. Read from `root` (tests pass a made-up tree).
struct BoxHealth: Equatable {
    /// The Raspberry Pi's `rpi_volt` hwmon alarm (`in0_lcrit_alarm`): under-voltage now.
    var underVoltageNow: Bool?
    /// Under-voltage at any time since boot: the firmware's `get_throttled` bit 16 where the
    /// kernel exposes it, else nil (the alarm above only says "now").
    var underVoltageSinceBoot: Bool?
    var fileSystems: [FileSystem] = []
    var cards: [CardWear] = []

    /// An ext4 file system that is mounted: its error count (`/sys/fs/ext4/DEV/errors_count`,
    /// kept in the superblock across boots) and whether its superblock is read-only.
    struct FileSystem: Equatable {
        var device: String
        var mountPoint: String
        var errors: Int
        var readOnly: Bool
    }

    /// An SD or eMMC card's wear as it reports it (JEDEC eMMC 5.0; many cards have neither):
    /// `life_time` is two estimates (types A and B) of 0x01 (0-10 % used) to 0x0B (past its
    /// end of life), `pre_eol_info` 0x01 normal, 0x02 warning (80 % of reserved blocks used),
    /// 0x03 urgent.
    struct CardWear: Equatable {
        var device: String
        var lifeTimeA: Int?
        var lifeTimeB: Int?
        var preEOL: Int?
    }

    static func read(root: String = "") -> BoxHealth {
        var health = BoxHealth()
        for hwmon in entries("\(root)/sys/class/hwmon") where text("\(root)/sys/class/hwmon/\(hwmon)/name") == "rpi_volt" {
            if let alarm = text("\(root)/sys/class/hwmon/\(hwmon)/in0_lcrit_alarm").flatMap({ Int($0) }) { health.underVoltageNow = alarm != 0 }
        }
        if let throttled = text("\(root)/sys/devices/platform/soc/soc:firmware/get_throttled").flatMap(hex) {
            health.underVoltageSinceBoot = throttled & 0x10000 != 0
            if health.underVoltageNow == nil { health.underVoltageNow = throttled & 0x1 != 0 }
        }
        health.fileSystems = ext4Mounts(root: root)
        health.cards = cardWear(root: root)
        return health
    }

    /// Every mounted ext4 file system with an error count, once each (a bind mount repeats one).
    private static func ext4Mounts(root: String) -> [FileSystem] {
        guard let mountinfo = try? String(contentsOfFile: "\(root)/proc/self/mountinfo", encoding: .utf8) else { return [] }
        var seen = Set<String>()
        var result: [FileSystem] = []
        for line in mountinfo.split(separator: "\n") {
            // "36 25 179:2 / / rw,noatime shared:1 - ext4 /dev/root rw": after " - " the type.
            let halves = line.split(separator: " - ", maxSplits: 1, omittingEmptySubsequences: false)
            let after = halves.count == 2 ? halves[1].split(separator: " ") : []
            guard after.count >= 3, after[0] == "ext4" else { continue }
            let fields = halves[0].split(separator: " ").map(String.init)
            guard fields.count >= 6 else { continue }
            // The device by its number: the source may read /dev/root on a Pi.
            // (/sys/dev/block/MAJ:MIN links to the device's directory, named as the kernel names it.)
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(root)/sys/dev/block/\(fields[2])"),
                  let device = target.split(separator: "/").last.map(String.init),
                  !seen.contains(device), let errors = text("\(root)/sys/fs/ext4/\(device)/errors_count").flatMap({ Int($0) }) else { continue }
            seen.insert(device)
            // The superblock's options, not the mount's: the unit's ProtectSystem=strict mounts
            // everything read-only in its namespace, while the kernel's remount after errors
            // turns the superblock read-only ("ro"; since Linux 6.x ext4 says "emergency_ro").
            let superOptions = after[2].split(separator: ",")
            result.append(FileSystem(device: device, mountPoint: unescaped(fields[4]), errors: errors,
                                     readOnly: superOptions.contains("ro") || superOptions.contains("emergency_ro")))
        }
        return result
    }

    private static func cardWear(root: String) -> [CardWear] {
        var result: [CardWear] = []
        for host in entries("\(root)/sys/class/mmc_host") {
            for card in entries("\(root)/sys/class/mmc_host/\(host)") where card.hasPrefix("mmc") && card.contains(":") {
                let directory = "\(root)/sys/class/mmc_host/\(host)/\(card)"
                let life = (text(directory + "/life_time", whole: true) ?? "").split(separator: " ").compactMap { hex(String($0)) }
                let preEOL = text(directory + "/pre_eol_info").flatMap(hex)
                guard !life.isEmpty || preEOL != nil else { continue }
                result.append(CardWear(device: card, lifeTimeA: life.first, lifeTimeB: life.dropFirst().first, preEOL: preEOL))
            }
        }
        return result
    }

    private static func entries(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    /// A sysfs attribute without surrounding blanks: its first word, or the whole line.
    private static func text(_ path: String, whole: Bool = false) -> String? {
        guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let words = contents.split(whereSeparator: \.isWhitespace)
        return whole ? words.joined(separator: " ") : words.first.map(String.init)
    }

    /// "0x0b" or "0b" as 11.
    private static func hex(_ value: String) -> Int? {
        Int(value.hasPrefix("0x") ? String(value.dropFirst(2)) : value, radix: 16)
    }

    /// mountinfo writes a space in a path as \040.
    private static func unescaped(_ path: String) -> String {
        path.split(separator: "\\040", omittingEmptySubsequences: false).joined(separator: " ")
    }
}
