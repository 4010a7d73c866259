import CarouselCore
import CTOML

/// One `[[playlist]]` table: a playlist file shown during a weekly window (dayparting).
package struct Daypart: Sendable, Equatable {
    /// Relative to the config directory, like playlist.m3u.
    package var file: String
    package var window: WeeklyWindow
    package var line: Int?
}

/// Reads the weekly-window tables of carouseld.conf:
///   [[screen]]    days = ["mon", …], on = "07:30", off = "22:00"   (when the screen is lit)
///   [[playlist]]  file = "morning.m3u", days = […], from = "06:00", to = "11:00"
/// Days default to every day; times are HH:MM (a string, or TOML's own time); a window whose
/// end is at or before its start crosses midnight. Problems are named `screen.KEY` or
/// `playlist.KEY` on the key's line.
package enum WindowTables {
    package static let names: Set<String> = ["screen", "playlist"]

    package struct Result {
        package var screen: [WeeklyWindow] = []
        package var dayparts: [Daypart] = []
        package var problems: [ConfigProblem] = []
        package var warnings: [ConfigProblem] = []
    }

    package static func parse(_ entries: [TOMLDocument.Entry], file: String) -> Result {
        var result = Result()
        var elements: [String: [Int: (header: TOMLDocument.Entry, keys: [TOMLDocument.Entry])]] = [:]
        var order: [(String, Int)] = []
        for entry in entries {
            guard let table = entry.table, names.contains(table) else { continue }
            if entry.isTableHeader {
                elements[table, default: [:]][entry.tableIndex] = (entry, [])
                order.append((table, entry.tableIndex))
            } else {
                elements[table]?[entry.tableIndex]?.keys.append(entry)
            }
        }
        for (table, index) in order {
            guard let element = elements[table]?[index] else { continue }
            var reader = WindowReader(table: table, header: element.header, file: file)
            let (start, end) = table == "screen" ? ("on", "off") : ("from", "to")
            let window = reader.window(element.keys, start: start, end: end, extra: table == "playlist" ? ["file"] : [])
            result.problems += reader.problems
            result.warnings += reader.warnings
            guard let window else { continue }
            if table == "screen" {
                result.screen.append(window)
            } else if let file = reader.strings["file"] {
                result.dayparts.append(Daypart(file: file, window: window, line: element.header.line))
            } else {
                result.problems.append(reader.problem("file", "missing; each [[playlist]] names its file, e.g. file = \"morning.m3u\""))
            }
        }
        result.warnings += overlaps(result.dayparts, file: file)
        return result
    }

    /// Dayparts whose windows share a minute of the week: the first one wins there.
    package static func overlaps(_ dayparts: [Daypart], file: String) -> [ConfigProblem] {
        var found: [ConfigProblem] = []
        for (i, later) in dayparts.enumerated() {
            for earlier in dayparts[..<i] {
                let shared = (0..<7).contains { day in
                    (0..<1440).contains { minute in
                        let time = LocalTime(weekday: day, minute: minute)
                        return earlier.window.contains(time) && later.window.contains(time)
                    }
                }
                if shared {
                    found.append(ConfigProblem(file: file, line: later.line, key: "playlist",
                        message: "\(later.file) overlaps the [[playlist]] at line \(earlier.line ?? 0) (\(earlier.file)); "
                            + "the first one wins where they overlap"))
                    break
                }
            }
        }
        return found
    }
}

/// One window table being read.
private struct WindowReader {
    package let table: String
    package let header: TOMLDocument.Entry
    package let file: String
    package var lines: [String: Int] = [:]
    package var strings: [String: String] = [:]
    package var problems: [ConfigProblem] = []
    package var warnings: [ConfigProblem] = []

    package init(table: String, header: TOMLDocument.Entry, file: String) {
        self.table = table; self.header = header; self.file = file
    }

    package mutating func window(_ keys: [TOMLDocument.Entry], start: String, end: String, extra: Set<String>) -> WeeklyWindow? {
        var days = Set(0..<7)
        var minutes: [String: Int] = [:]
        for entry in keys {
            lines[entry.key] = entry.line
            switch entry.key {
            case "days":
                guard let names = entry.value.strings else {
                    problems.append(problem("days", ConfigKey.expected("an array of day names such as [\"mon\", \"tue\"]", entry.value)))
                    continue
                }
                let parsed = names.map { ($0, Weekdays.parse($0)) }
                if let bad = parsed.first(where: { $0.1 == nil }) {
                    problems.append(problem("days", "\"\(bad.0)\" is not a day; allowed \(Weekdays.names.joined(separator: ", "))"))
                } else if parsed.isEmpty {
                    problems.append(problem("days", "[] names no day: the window would never apply"))
                } else {
                    days = Set(parsed.compactMap(\.1))
                }
            case start, end:
                // "07:30", or TOML's own 07:30:00.
                let text = entry.value.kind == CAROUSELD_TOML_TIME ? String(entry.value.text.prefix(5)) : entry.value.string
                guard let text, let minute = Weekdays.minute(text) else {
                    problems.append(problem(entry.key, entry.value.string == nil
                        ? ConfigKey.expected("a time \"HH:MM\"", entry.value)
                        : "\"\(entry.value.text)\" is not a time; allowed HH:MM, e.g. \"07:30\""))
                    continue
                }
                minutes[entry.key] = minute
            case let key where extra.contains(key):
                guard let value = entry.value.string, !value.isEmpty else {
                    problems.append(problem(key, entry.value.string == nil ? ConfigKey.expected("a string", entry.value)
                                                                           : "\"\" is empty; allowed a playlist file such as morning.m3u"))
                    continue
                }
                strings[key] = value
            default:
                warnings.append(problem(entry.key, "unknown key, ignored"))
            }
        }
        for key in [start, end] where lines[key] == nil {
            problems.append(problem(key, "missing; each [[\(table)]] gives \(start) and \(end), e.g. \(start) = \"07:30\""))
        }
        guard let from = minutes[start], let to = minutes[end] else { return nil }
        guard from != to else {
            problems.append(problem(end, "the window \(start) = \(Self.clock(from)), \(end) = \(Self.clock(to)) is empty"))
            return nil
        }
        return WeeklyWindow(days: days, start: from, end: to % 1440)
    }

    package static func clock(_ minute: Int) -> String {
        let h = minute / 60, m = minute % 60
        return "\"\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)\""
    }

    package func problem(_ key: String, _ message: String) -> ConfigProblem {
        ConfigProblem(file: file, line: lines[key] ?? header.line, key: table + "." + key, message: message)
    }
}
