import CarouselConfig
import CarouselEngine

/// Which screens the daemon drives and which carousel each one shows: from the `[[output]]`
/// tables and `layout`, or, without tables, every connector connected at start.
package struct ScreenPlan: Equatable, Sendable {
    package struct Screen: Equatable, Sendable {
        /// Connector name; nil for "the first connected one" (one screen, nothing named).
        package var connector: String?
        package var settings: OutputSettings
        /// The touch device named in its table.
        package var touch: String?

        package init(connector: String?, settings: OutputSettings, touch: String? = nil) {
            self.connector = connector; self.settings = settings; self.touch = touch
        }
    }

    /// One carousel: all screens (mirror, span) or one (independent).
    package struct CarouselPlan: Equatable, Sendable {
        /// "HDMI-A-1", or "HDMI-A-1+HDMI-A-2" for a mirror or span; "" for the one unnamed screen.
        package var name: String
        /// Indices into `screens`.
        package var screens: [Int]
        package var config: CarouselConfig
        /// Whose `[[output]]` playlist it shows (independent); nil: playlist.m3u or the media directory.
        package var playlistOutput: String?

        package init(name: String, screens: [Int], config: CarouselConfig, playlistOutput: String? = nil) {
            self.name = name; self.screens = screens; self.config = config; self.playlistOutput = playlistOutput
        }
    }

    package var layout: OutputLayout
    package var screens: [Screen]
    package var carousels: [CarouselPlan]

    package init(layout: OutputLayout, screens: [Screen], carousels: [CarouselPlan]) {
        self.layout = layout; self.screens = screens; self.carousels = carousels
    }

    /// `connected`: connector names connected now (used only when no table names any).
    package static func make(shell: ShellSettings, config: CarouselConfig, connected: [String] = []) -> ScreenPlan {
        var tables = shell.outputTables(config)
        if tables.isEmpty && connected.count > 1 {
            tables = connected.map { OutputTable(name: $0, config: config) }
        }
        guard !tables.isEmpty else {
            return ScreenPlan(layout: shell.layout, screens: [Screen(connector: nil, settings: OutputSettings(shell))],
                              carousels: [CarouselPlan(name: "", screens: [0], config: config)])
        }
        let screens = tables.map { table in
            Screen(connector: table.name,
                   settings: OutputSettings(connector: table.name, mode: table.mode ?? shell.mode,
                                            rotation: table.rotation ?? shell.rotation, kms: shell.kms),
                   touch: table.touch)
        }
        let carousels: [CarouselPlan]
        if shell.layout == .independent {
            carousels = tables.enumerated().map { i, table in
                CarouselPlan(name: table.name, screens: [i], config: table.config,
                      playlistOutput: table.playlist == nil ? nil : table.name)
            }
        } else {
            carousels = [CarouselPlan(name: tables.map(\.name).joined(separator: "+"), screens: Array(tables.indices), config: config)]
        }
        return ScreenPlan(layout: shell.layout, screens: screens, carousels: carousels)
    }

    /// The engine's viewport and each screen's transform for one carousel, from its screens' sizes.
    package func arrangement(of carousel: CarouselPlan, sizes: [Size?]) -> ScreenArrangement? {
        guard carousel.screens.count > 1 else {
            return sizes.first.flatMap { $0 }.map { ScreenArrangement(viewport: $0, transforms: [.identity]) }
        }
        return layout == .span ? ScreenArrangement.span(sizes) : ScreenArrangement.mirror(sizes)
    }

    /// How a screen is used, for logs and `carouseld outputs`: "mirror 2 of 2", "span 1 of 2", "independent".
    package func role(ofScreen index: Int) -> String {
        guard let carousel = carousels.first(where: { $0.screens.contains(index) }), carousel.screens.count > 1 else {
            return screens.count > 1 ? "independent" : "single"
        }
        let position = (carousel.screens.firstIndex(of: index) ?? 0) + 1
        return "\(layout == .span ? "span" : "mirror") \(position) of \(carousel.screens.count)"
    }
}
