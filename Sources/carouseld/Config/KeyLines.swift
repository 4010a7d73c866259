/// Finds the line on which a top-level key is assigned, for messages.
///
/// Why: TOMLKit reports source positions only for parse errors, not for values, so value
/// errors would have no line. This is a lookup over an already-parsed file's lines, not a
/// parser: it only has to point at the right line for a key the parser already accepted.
struct KeyLines: Sendable {
    private var firstLine: [String: Int] = [:]

    init(text: String) {
        var inTopLevel = true
        for (offset, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isLineFeed).enumerated() {
            let line = raw.drop(while: { $0 == " " || $0 == "\t" })
            if line.hasPrefix("[") {
                // A table header: its name is a top-level key; keys below belong to it.
                inTopLevel = false
                let name = line.drop(while: { $0 == "[" || $0 == " " })
                    .prefix(while: { $0 != "]" && $0 != "." && $0 != " " })
                record(Self.unquote(name), offset + 1)
                continue
            }
            guard inTopLevel else { continue }
            let key = line.prefix(while: { $0 != "=" && $0 != "." && $0 != " " && $0 != "\t" })
            guard !key.isEmpty, !key.hasPrefix("#") else { continue }
            let rest = line.dropFirst(key.count).drop(while: { $0 == " " || $0 == "\t" })
            if rest.hasPrefix("=") || rest.hasPrefix(".") { record(Self.unquote(key), offset + 1) }
        }
    }

    /// The 1-based line of `key`, or nil when the file does not set it.
    func line(of key: String) -> Int? { firstLine[key] }

    private mutating func record(_ key: String, _ line: Int) {
        if firstLine[key] == nil { firstLine[key] = line }
    }

    private static func unquote(_ s: Substring) -> String {
        var s = s
        if let f = s.first, f == "\"" || f == "'", s.count >= 2, s.last == f { s = s.dropFirst().dropLast() }
        return String(s)
    }
}
