/// The line on which each top-level key of `carouseld.conf` is set, as toml++ reported it,
/// for later problems about the same file (e.g. a `media` directory that does not exist).
struct KeyLines: Sendable {
    private var firstLine: [String: Int] = [:]

    init(_ entries: [TOMLDocument.Entry]) {
        for entry in entries where firstLine[entry.key] == nil { firstLine[entry.key] = entry.line }
    }

    /// The 1-based line of `key`, or nil when the file does not set it.
    func line(of key: String) -> Int? { firstLine[key] }
}
