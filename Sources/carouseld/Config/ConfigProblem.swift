/// One problem found while loading a config directory, printed as `file:line: key: message`
/// (the form compilers and `nginx -t` use, so editors can jump to it).
struct ConfigProblem: Sendable, Equatable, CustomStringConvertible {
    var file: String
    /// 1-based line; nil when the problem has no line (a missing file or directory).
    var line: Int?
    var key: String
    var message: String

    var description: String {
        if let line { return "\(file):\(line): \(key): \(message)" }
        return "\(file): \(key): \(message)"
    }
}

/// Loading failed: every problem found, each formatted `file:line: key: message`.
struct ConfigLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    var problems: [String]
    /// Warnings found along the way (unknown keys, refused entries), for `carouseld check`.
    var warnings: [String] = []
    var description: String { problems.joined(separator: "\n") }
}
