import CarouselEngine

/// How the carousel is shown when several screens are used.
package enum OutputLayout: String, CaseIterable, Sendable {
    /// The same carousel on every screen.
    case mirror
    /// A carousel per screen, each with its own playlist and settings.
    case independent
    /// One carousel across the screens side by side.
    case span
}

/// One [[output]] table: a connector and how it is driven.
package struct OutputTable: Sendable, Equatable {
    package var name: String            // connector, e.g. "HDMI-A-2"
    package var mode: String? = nil     // WIDTHxHEIGHT[@HZ]
    package var rotation: Int? = nil    // nil: the top-level rotation
    package var touch: String? = nil    // touch device name ("ILITEK ILITEK-TP") or udev ID_PATH
    package var playlist: String? = nil // independent only; path relative to the config directory
    package var config: CarouselConfig  // the top-level carousel settings with this table's overrides (independent only)
    package var line: Int? = nil        // line of the table in carouseld.conf, for messages

    package init(name: String, mode: String? = nil, rotation: Int? = nil, touch: String? = nil, playlist: String? = nil,
                 config: CarouselConfig, line: Int? = nil) {
        self.name = name; self.mode = mode; self.rotation = rotation; self.touch = touch
        self.playlist = playlist; self.config = config; self.line = line
    }
}

/// Checks of the `[[output]]` tables that need the machine: the daemon and `check` ask the
/// display which connectors exist, then call these.
package enum OutputTables {
    /// One problem per table naming a connector the machine does not have, listing those it has.
    package static func unknownConnectors(_ tables: [OutputTable], available: [String], file: String) -> [ConfigProblem] {
        let known = Set(available)
        let list = available.isEmpty ? "none" : available.joined(separator: ", ")
        return tables.filter { !$0.name.isEmpty && !known.contains($0.name) }.map { table in
            ConfigProblem(file: file, line: table.line, key: "output.name",
                          message: "connector \(table.name) not found; available: \(list)")
        }
    }
}
