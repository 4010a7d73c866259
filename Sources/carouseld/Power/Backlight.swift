import CarouselCore
import Glibc

/// A panel's backlight (`/sys/class/backlight/NAME`), switched with the screen: a KMS screen
/// going off stops the signal, but a touch panel's backlight may stay lit. Off writes
/// `bl_power` = 4 (FB_BLANK_POWERDOWN) where the device has it, else brightness 0 with the old
/// value kept; on undoes it. A write that fails (the hardened unit keeps /sys read-only) is
/// said once, naming the file and the reason, and the screen is switched by KMS alone.
final class Backlight {
    let name: String
    private let directory: String
    /// The brightness before it was set to 0 (devices without bl_power).
    private var savedBrightness: String?
    private var failed = false

    init(name: String, sysfs: String = "/sys") {
        self.name = name
        directory = "\(sysfs)/class/backlight/\(name)"
    }

    /// False when the class has no such device.
    var exists: Bool { access(directory + "/brightness", F_OK) == 0 }

    func setPower(_ on: Bool) {
        if access(directory + "/bl_power", F_OK) == 0 {
            write(on ? "0" : "4", to: "bl_power")
        } else if on {
            write(savedBrightness ?? Self.read(directory + "/max_brightness") ?? "1", to: "brightness")
            savedBrightness = nil
        } else {
            // Already 0 (a second off): keep the value saved the first time.
            if let now = Self.read(directory + "/brightness"), now != "0" { savedBrightness = now }
            write("0", to: "brightness")
        }
    }

    private func write(_ value: String, to attribute: String) {
        let path = "\(directory)/\(attribute)"
        do {
            // O_TRUNC as the shell's `echo 0 > brightness` does: sysfs accepts it, and a plain file (tests) needs it.
            let fd = try OwnedDescriptor.open(path, O_WRONLY | O_TRUNC)
            try Array(value.utf8).withUnsafeBytes { try fd.writeAll($0) }
        } catch {
            if !failed {
                Log.warning("backlight \(path): cannot write (\(error)); the screen is switched by KMS alone "
                            + "(it needs the file writable by group video and, under the unit, ProtectKernelTunables=no: see carouseld(8))")
            }
            failed = true
            return
        }
        if failed { Log.notice("backlight \(path): written again") }
        failed = false
    }

    /// A sysfs attribute's value without its newline; nil when it cannot be read.
    static func read(_ path: String) -> String? {
        guard let fd = try? OwnedDescriptor.open(path, O_RDONLY) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 64)
        guard let count = try? bytes.withUnsafeMutableBytes({ try fd.read(into: $0) }) else { return nil }
        return String(decoding: bytes.prefix(count), as: UTF8.self).split(whereSeparator: \.isWhitespace).first.map(String.init)
    }

    /// The backlights for `setting` (`backlight`): "off" none; a name, that device; "auto" each
    /// one the kernel registered under a screen's connector (`card0-eDP-1/intel_backlight`:
    /// i915, amdgpu, panel drivers). `connectors` are (card, connector) such as ("card0", "eDP-1").
    static func resolve(_ setting: String, connectors: [(card: String, connector: String)], sysfs: String = "/sys") -> [Backlight] {
        switch setting {
        case "off":
            return []
        case "auto":
            let owners = Set(connectors.map { "\($0.card)-\($0.connector)" })
            return names(sysfs: sysfs).filter { name in
                guard let target = realpath("\(sysfs)/class/backlight/\(name)") else { return false }
                return owners.contains(target.split(separator: "/").dropLast().last.map(String.init) ?? "")
            }.map { Backlight(name: $0, sysfs: sysfs) }
        default:
            let named = Backlight(name: setting, sysfs: sysfs)
            guard named.exists else {
                let known = names(sysfs: sysfs)
                Log.warning("backlight = \"\(setting)\": no \(sysfs)/class/backlight/\(setting) (the machine has "
                            + (known.isEmpty ? "none" : known.joined(separator: ", ")) + "); the screen is switched by KMS alone")
                return []
            }
            return [named]
        }
    }

    private static func names(sysfs: String) -> [String] {
        guard let dir = opendir("\(sysfs)/class/backlight") else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    private static func realpath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
