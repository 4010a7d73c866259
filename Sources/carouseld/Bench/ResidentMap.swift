import CarouselCore
import Glibc

/// Where a process's resident memory is, from /proc/self/smaps: each mapping's Rss added to a
/// group (this program, the Swift runtime and Foundation, the other libraries, malloc's heap,
/// anonymous mappings such as frames and cards, the stacks). For the bench's floor figure.
enum ResidentMap {
    /// Resident bytes per group, largest first.
    static func groups(smaps: String? = procFile("/proc/self/smaps")) -> [(String, Int)] {
        guard let smaps else { return [] }
        var totals: [String: Int] = [:]
        var group = "anonymous"
        for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-") && fields.count >= 5 {
                // A mapping's header: "start-end perms offset dev inode [path]".
                group = Self.group(path: fields.count > 5 ? String(fields[5]) : "")
            } else if first == "Rss:", fields.count >= 2, let kilobytes = Int(fields[1]) {
                totals[group, default: 0] += kilobytes * 1024
            }
        }
        return totals.sorted { $0.value > $1.value }.map { ($0.key, $0.value) }
    }

    /// A /proc file read to its end (its size is reported as 0, so a read by size stops early).
    static func procFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            bytes += chunk[..<got]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func group(path: String) -> String {
        if path.isEmpty { return "anonymous (frames, cards, large malloc blocks)" }
        if path == "[heap]" { return "malloc heap" }
        if path.hasPrefix("[stack") { return "stacks" }
        if path.hasPrefix("[") { return "kernel ([vdso], [vvar])" }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name == "carouseld" { return "carouseld's code and data" }
        if ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime"].contains(where: { name.hasPrefix($0) }) {
            return "Swift runtime and Foundation"
        }
        if name.hasPrefix("libc.") || name.hasPrefix("libm.") || name.hasPrefix("ld-linux") || name.hasPrefix("libstdc++") || name.hasPrefix("libgcc") {
            return "C and C++ runtime"
        }
        if name.hasPrefix("lib") { return "other libraries (pixman, codecs, ICU...)" }
        return "other files"
    }
}
