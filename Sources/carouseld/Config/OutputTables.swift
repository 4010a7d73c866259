import CarouselEngine

/// How the carousel is shown when several screens are used.
enum OutputLayout: String, CaseIterable, Sendable {
    /// The same carousel on every screen.
    case mirror
    /// A carousel per screen, each with its own playlist and settings.
    case independent
    /// One carousel across the screens side by side.
    case span
}

/// One [[output]] table: a connector and how it is driven.
struct OutputTable: Sendable, Equatable {
    var name: String            // connector, e.g. "HDMI-A-2"
    var mode: String? = nil     // WIDTHxHEIGHT[@HZ]
    var rotation: Int? = nil    // nil: the top-level rotation
    var touch: String? = nil    // touch device name ("ILITEK ILITEK-TP") or udev ID_PATH
    var playlist: String? = nil // independent only; path relative to the config directory
    var config: CarouselConfig  // the top-level carousel settings with this table's overrides (independent only)
    var line: Int? = nil        // line of the table in carouseld.conf, for messages
}

/// Checks of the `[[output]]` tables that need the machine: the daemon and `check` ask the
/// display which connectors exist, then call these.
enum OutputTables {
    /// One problem per table naming a connector the machine does not have, listing those it has.
    static func unknownConnectors(_ tables: [OutputTable], available: [String], file: String) -> [ConfigProblem] {
        let known = Set(available)
        let list = available.isEmpty ? "none" : available.joined(separator: ", ")
        return tables.filter { !$0.name.isEmpty && !known.contains($0.name) }.map { table in
            ConfigProblem(file: file, line: table.line, key: "output.name",
                          message: "connector \(table.name) not found; available: \(list)")
        }
    }
}
