/// One problem found while loading a config directory, printed as `file:line: key: message`
/// (the form compilers and `nginx -t` use, so editors can jump to it).
package struct ConfigProblem: Sendable, Equatable, CustomStringConvertible {
    package var file: String
    /// 1-based line; nil when the problem has no line (a missing file or directory).
    package var line: Int?
    package var key: String
    package var message: String

    package var description: String {
        if let line { return "\(file):\(line): \(key): \(message)" }
        return "\(file): \(key): \(message)"
    }
}

/// Loading failed: every problem found, each formatted `file:line: key: message`.
package struct ConfigLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    package var problems: [String]
    /// Warnings found along the way (unknown keys, refused entries), for `carouseld check`.
    package var warnings: [String] = []
    package var description: String { problems.joined(separator: "\n") }
}
