/// The line on which each key of `carouseld.conf` is set, as toml++ reported it, for later
/// problems about the same file (e.g. a `media` directory that does not exist, or the
/// `playlist` of an `[[output]]` that is missing).
package struct KeyLines: Sendable {
    private struct Place: Hashable {
        package var table: String?
        package var index: Int
        package var key: String
    }
    private var firstLine: [Place: Int] = [:]

    package init(_ entries: [TOMLDocument.Entry]) {
        for entry in entries {
            let place = Place(table: entry.table, index: entry.tableIndex, key: entry.key)
            if firstLine[place] == nil { firstLine[place] = entry.line }
        }
    }

    /// The 1-based line of top-level `key`, or nil when the file does not set it.
    package func line(of key: String) -> Int? { firstLine[Place(table: nil, index: -1, key: key)] }

    /// The line of `key` in element `index` of `[[table]]`; `key` "" is the element's header.
    package func line(of key: String, table: String, index: Int) -> Int? {
        firstLine[Place(table: table, index: index, key: key)]
    }
}
