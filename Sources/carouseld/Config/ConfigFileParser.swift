import CarouselEngine
import Synchronization
import TOMLKit

/// Turns the text of `carouseld.conf` into a `CarouselConfig` with TOMLKit (toml++), then
/// checks types and ranges. Unknown keys are warnings, everything else is a problem.
enum ConfigFileParser {
    struct Result: Sendable {
        var config = CarouselConfig()
        var problems: [ConfigProblem] = []
        var warnings: [ConfigProblem] = []
        /// Where each key sits, for later problems about the same file (e.g. `media`).
        var lines: KeyLines? = nil
    }

    /// TOMLKit 0.6 never frees a parsed document (its TOMLTable has no deinit; about 2 KB for a
    /// typical carouseld.conf). The last text's result is kept, so the many reloads caused by
    /// picture changes parse nothing and leak nothing; only real edits of the file do.
    private static let lastParse = Mutex<(bytes: [UInt8], file: String, result: Result)?>(nil)

    static func parse(bytes: [UInt8], file: String) -> Result {
        if let cached = lastParse.withLock({ $0 }), cached.bytes == bytes, cached.file == file {
            return cached.result
        }
        let result = parseUncached(bytes: bytes, file: file)
        lastParse.withLock { $0 = (bytes, file, result) }
        return result
    }

    private static func parseUncached(bytes: [UInt8], file: String) -> Result {
        var result = Result()
        if let refusal = TOMLInputGuard.refusal(bytes) {
            result.problems.append(ConfigProblem(file: file, line: refusal.line, key: "syntax", message: refusal.message))
            return result
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            result.problems.append(ConfigProblem(file: file, line: firstInvalidUTF8Line(bytes), key: "syntax",
                                                 message: "file is not valid UTF-8"))
            return result
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            result.problems.append(ConfigProblem(file: file, line: max(1, error.source.begin.line), key: "syntax",
                                                 message: "\(error.description) (column \(error.source.begin.column))"))
            return result
        } catch {
            result.problems.append(ConfigProblem(file: file, line: nil, key: "syntax", message: "\(error)"))
            return result
        }

        let lines = KeyLines(text: text)
        result.lines = lines
        for name in table.keys.sorted(by: { (lines.line(of: $0) ?? 0) < (lines.line(of: $1) ?? 0) }) {
            // Look each key up (not the iterator, which force-unwraps): a key holding an escaped NUL
            // is cut short by the C bridge and finds no value.
            guard let value = table[name] else {
                result.warnings.append(ConfigProblem(file: file, line: lines.line(of: name), key: name,
                                                     message: "key cannot be read, ignored"))
                continue
            }
            guard let key = ConfigKey.byName[name] else {
                result.warnings.append(ConfigProblem(file: file, line: lines.line(of: name), key: name,
                                                     message: "unknown key, ignored"))
                continue
            }
            if let message = key.apply(&result.config, value) {
                result.problems.append(ConfigProblem(file: file, line: lines.line(of: name), key: name, message: message))
            }
        }
        let typeErrorKeys = Set(result.problems.map(\.key))
        for issue in result.config.validate() where !typeErrorKeys.contains(issue.key) {
            result.problems.append(ConfigProblem(file: file, line: lines.line(of: issue.key), key: issue.key,
                                                 message: issue.message))
        }
        return result
    }

    private static func firstInvalidUTF8Line(_ bytes: [UInt8]) -> Int {
        var line = 1
        var start = 0
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") {
            if String(validating: bytes[start..<i], as: UTF8.self) == nil { return line }
            line += 1
            start = i + 1
        }
        return line
    }
}
