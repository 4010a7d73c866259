import CarouselCore
import CarouselEngine

/// Turns the text of `carouseld.conf` into `ConfigValues` with toml++ (`TOMLDocument`),
/// then checks types and ranges; `[[output]]` tables go through `OutputTableParser`. Unknown
/// keys are warnings, everything else is a problem.
package enum ConfigFileParser {
    package struct Result: Sendable {
        package var values = ConfigValues()
        package var config: CarouselConfig { values.config }
        package var shell: ShellSettings { values.shell }
        package var problems: [ConfigProblem] = []
        package var warnings: [ConfigProblem] = []
        /// Where each key sits, for later problems about the same file (e.g. `media`).
        package var lines: KeyLines? = nil
    }

    package static func parse(bytes: [UInt8], file: String) -> Result {
        var result = Result()
        if let refusal = TOMLInputGuard.refusal(bytes) {
            result.problems.append(ConfigProblem(file: file, line: refusal.line, key: "syntax", message: refusal.message))
            return result
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            result.problems.append(ConfigProblem(file: file, line: firstInvalidUTF8Line(bytes), key: "syntax",
                                                 message: "file is not valid UTF-8"))
            return result
        }
        let entries: [TOMLDocument.Entry]
        do {
            entries = try TOMLDocument.parse(bytes)
        } catch {
            result.problems.append(ConfigProblem(file: file, line: max(1, error.line), key: "syntax",
                                                 message: "\(error.message) (column \(error.column))"))
            return result
        }

        let lines = KeyLines(entries)
        result.lines = lines
        for entry in entries where entry.table == nil {
            guard let key = ConfigKey.byName[entry.key] else {
                result.warnings.append(ConfigProblem(file: file, line: entry.line, key: entry.key,
                                                     message: "unknown key, ignored"))
                continue
            }
            if let message = key.apply(&result.values, entry.value) {
                result.problems.append(ConfigProblem(file: file, line: entry.line, key: entry.key, message: message))
            }
        }
        let typeErrorKeys = Set(result.problems.map(\.key))
        for issue in result.values.validate() where !typeErrorKeys.contains(issue.key) {
            result.problems.append(ConfigProblem(file: file, line: lines.line(of: issue.key), key: issue.key,
                                                 message: issue.message))
        }
        // After the top level, so the tables' overrides start from it wherever they are.
        let tables = OutputTableParser.parse(entries, values: result.values, file: file)
        result.values.shell.outputs = tables.tables
        result.problems += tables.problems
        result.warnings += tables.warnings
        let windows = WindowTables.parse(entries, file: file)
        result.values.shell.schedule.screens = windows.screen
        result.values.shell.schedule.dayparts = windows.dayparts
        result.problems += windows.problems
        result.warnings += windows.warnings
        if result.values.shell.output != nil && !tables.tables.isEmpty {
            result.problems.append(ConfigProblem(file: file, line: lines.line(of: "output"), key: "output", message:
                "cannot be used with [[output]] tables; name the connector in a table instead"))
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
