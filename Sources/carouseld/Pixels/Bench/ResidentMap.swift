import FoundationEssentials

/// Where a process's resident memory is, from /proc/self/smaps: each mapping's Rss added to a
/// group (this program, the Swift runtime and Foundation, the other libraries, malloc's heap,
/// anonymous mappings such as frames and cards, the stacks). For the bench's floor figure.
enum ResidentMap {
    /// Resident bytes per group, largest first.
    static func groups(smaps: String? = try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8)) -> [(String, Int)] {
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
