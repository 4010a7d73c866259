/// One problem found while loading a config directory, printed as `file:line: key: message`
/// (the form compilers and `nginx -t` use, so editors can jump to it).
package struct ConfigProblem: Sendable, Equatable, CustomStringConvertible {
    package var file: String
    /// 1-based line; nil when the problem has no line (a missing file or directory).
    package var line: Int?
    package var key: String
    package var message: String
    /// Problems of one kind (entries not found in one playlist) are logged as one line with
    /// their count; nil for a problem that stands alone.
    package var kind: Kind?

    package struct Kind: Sendable, Equatable {
        /// The file the summary line names, and what it says of every entry of the kind.
        package var file: String
        package var message: String
        package init(file: String, message: String) { self.file = file; self.message = message }
    }

    package init(file: String, line: Int?, key: String, message: String, kind: Kind? = nil) {
        self.file = file; self.line = line; self.key = key; self.message = message; self.kind = kind
    }

    package var description: String {
        if let line { return "\(file):\(line): \(key): \(message)" }
        return "\(file): \(key): \(message)"
    }

    /// How many entries a summary line names before "and N more".
    package static let namedInSummary = 3

    /// The problems as log lines: one per problem, except that two or more of one kind make one
    /// line with their count and the first few entries ("playlist.m3u: 9999 entries not found in
    /// /srv/media; skipped: line 2 a.jpg, line 3 b.jpg, line 4 c.jpg and 9996 more"), in the
    /// order each kind first appears. A 10 000-line playlist then costs one log line, not 10 000
    /// (which journald's rate limit would drop), on every reload.
    package static func summarised(_ problems: [ConfigProblem]) -> [String] {
        var byKind: [Kind: [ConfigProblem]] = [:]
        for problem in problems {
            if let kind = problem.kind { byKind[kind, default: []].append(problem) }
        }
        var lines: [String] = []
        var summarisedKinds: Set<Kind> = []
        for problem in problems {
            guard let kind = problem.kind, let group = byKind[kind], group.count > 1 else {
                lines.append(problem.description)
                continue
            }
            guard summarisedKinds.insert(kind).inserted else { continue }
            let named = group.prefix(namedInSummary).map { problem in
                // An entry is its line and key in a file of entries, else its own file's name.
                problem.file == kind.file ? (problem.line.map { "line \($0) " } ?? "") + problem.key
                    : String(problem.file.dropFirst(kind.file.count).drop { $0 == "/" })
            }
            let more = group.count - named.count
            lines.append("\(kind.file): \(group.count) entries \(kind.message): " + named.joined(separator: ", ")
                         + (more > 0 ? " and \(more) more" : ""))
        }
        return lines
    }
}

extension ConfigProblem.Kind: Hashable {}

/// Loading failed: every problem found, each formatted `file:line: key: message`.
package struct ConfigLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    package var problems: [String]
    /// Warnings found along the way (unknown keys, refused entries), for `carouseld check`.
    package var warnings: [String] = []
    package var description: String { problems.joined(separator: "\n") }
}
