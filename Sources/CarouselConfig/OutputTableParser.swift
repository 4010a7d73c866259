import CarouselCore
import CarouselEngine

/// Reads the `[[output]]` tables of carouseld.conf. It runs after the top level is applied, so
/// a table's engine overrides start from the top-level settings wherever they sit in the file,
/// and the checks know the layout. Unknown keys are warnings; everything else is a problem,
/// named `output.KEY` on the key's line (or the table's, for a missing `name`).
package enum OutputTableParser {
    package static let tableName = "output"

    package struct Result {
        package var tables: [OutputTable] = []
        package var problems: [ConfigProblem] = []
        package var warnings: [ConfigProblem] = []
    }

    package typealias Apply = @Sendable (inout OutputTable, TOMLValue) -> String?

    /// The keys only a table has; every engine key (`ConfigKey.engine`) is an override.
    package static let ownKeys: [String: Apply] = [
        "name": string { $0.name = $1 },
        "mode": string { $0.mode = $1 },
        "rotation": { table, value in
            // 2.0 is accepted as 2, as at the top level.
            guard let n = value.int ?? value.double.flatMap({ Int(exactly: $0) }) else {
                return ConfigKey.expected("an integer", value)
            }
            table.rotation = n
            return nil
        },
        "touch": string { $0.touch = $1 },
        "playlist": string { $0.playlist = $1 },
    ]

    private static func string(_ store: @escaping @Sendable (inout OutputTable, String) -> Void) -> Apply {
        { table, value in
            guard let s = value.string else { return ConfigKey.expected("a string", value) }
            store(&table, s)
            return nil
        }
    }

    /// The tables of `entries`, built on `values` (the top level, already applied).
    package static func parse(_ entries: [TOMLDocument.Entry], values: ConfigValues, file: String) -> Result {
        var result = Result()
        var elements: [(header: TOMLDocument.Entry, keys: [TOMLDocument.Entry])] = []
        var elementOfIndex: [Int: Int] = [:]
        var warnedTables = Set<String>()
        for entry in entries {
            guard let table = entry.table else { continue }
            guard table == tableName else {
                // [[screen]] and [[playlist]] are read by `WindowTables`; others are like an unknown key.
                if !WindowTables.names.contains(table), warnedTables.insert(table).inserted {
                    result.warnings.append(ConfigProblem(file: file, line: entry.line, key: table,
                                                         message: "unknown table, ignored"))
                }
                continue
            }
            if entry.isTableHeader {
                elementOfIndex[entry.tableIndex] = elements.count
                elements.append((entry, []))
            } else if let element = elementOfIndex[entry.tableIndex] {
                elements[element].keys.append(entry)
            }
        }
        var connectorLines: [String: Int] = [:]
        for (header, keys) in elements {
            var element = Element(header: header, file: file)
            let table = element.read(keys, values: values)
            result.warnings += element.warnings
            result.problems += element.problems
            result.problems += element.check(table, layout: values.shell.layout, connectorLines: &connectorLines)
            result.tables.append(table)
        }
        // File order, the unknown tables among the rest (stable: ties keep their order).
        result.warnings = result.warnings.enumerated()
            .sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }.map(\.element)
        return result
    }
}

/// One `[[output]]` element being read: its keys' lines and what went wrong with them.
private struct Element {
    package let header: TOMLDocument.Entry
    package let file: String
    package var lines: [String: Int] = [:]
    /// Keys with a wrong type: no range check repeats their problem.
    package var badKeys = Set<String>()
    /// The engine keys this table overrides, in file order.
    package var overridden: [String] = []
    package var problems: [ConfigProblem] = []
    package var warnings: [ConfigProblem] = []

    package init(header: TOMLDocument.Entry, file: String) { self.header = header; self.file = file }

    package mutating func read(_ keys: [TOMLDocument.Entry], values: ConfigValues) -> OutputTable {
        var table = OutputTable(name: "", config: values.config, line: header.line)
        var overrides = values
        for entry in keys {
            lines[entry.key] = entry.line
            let message: String?
            if let own = OutputTableParser.ownKeys[entry.key] {
                message = own(&table, entry.value)
            } else if ConfigKey.engineNames.contains(entry.key), let key = ConfigKey.byName[entry.key] {
                overridden.append(entry.key)
                message = key.apply(&overrides, entry.value)
            } else {
                let why = ConfigKey.byName[entry.key] == nil ? "unknown key, ignored" : "not a per-output setting, ignored"
                warnings.append(problem(entry.key, why))
                continue
            }
            if let message {
                badKeys.insert(entry.key)
                problems.append(problem(entry.key, message))
            }
        }
        table.config = overrides.config
        return table
    }

    /// Range, uniqueness and layout checks of a table read without type errors.
    package func check(_ table: OutputTable, layout: OutputLayout, connectorLines: inout [String: Int]) -> [ConfigProblem] {
        var found: [ConfigProblem] = []
        func add(_ key: String, _ message: String?) {
            if let message, !badKeys.contains(key) { found.append(problem(key, message)) }
        }
        if lines["name"] == nil {
            found.append(problem("name", "missing; each [[output]] names its connector, e.g. name = \"HDMI-A-1\""))
        } else if table.name.isEmpty {
            add("name", ShellSettings.emptyOutputMessage)
        } else if !badKeys.contains("name") {
            if let first = connectorLines[table.name] {
                add("name", "\(table.name) is already used by the [[output]] at line \(first)")
            } else {
                connectorLines[table.name] = header.line
            }
        }
        add("mode", table.mode.flatMap(ShellSettings.modeProblem))
        add("rotation", table.rotation.flatMap(ShellSettings.rotationProblem))
        add("touch", table.touch == "" ? "\"\" is empty; allowed a touch device name or its udev ID_PATH" : nil)
        add("playlist", table.playlist == "" ? "\"\" is empty; allowed a playlist file such as lobby.m3u" : nil)
        guard layout == .independent else {
            let only = "only with layout = \"independent\""
            if table.playlist != nil { add("playlist", only) }
            for key in overridden { add(key, only) }
            return found
        }
        for issue in table.config.validate() where overridden.contains(issue.key) {
            add(issue.key, issue.message)
        }
        return found
    }

    /// A problem about `key` of this table, on its line (the table's when the key is absent).
    package func problem(_ key: String, _ message: String) -> ConfigProblem {
        ConfigProblem(file: file, line: lines[key] ?? header.line, key: OutputTableParser.tableName + "." + key,
                      message: message)
    }
}
