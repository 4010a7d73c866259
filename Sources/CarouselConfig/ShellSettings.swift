import CarouselEngine

/// The daemon's own settings around the engine: which screen and how it is turned, which input
/// devices, where the pictures are and how much memory they may take. `run`, `render` and
/// `check` read them from carouseld.conf and check them with `validate()`; `run`'s command-line
/// overrides go through the same check.
package struct ShellSettings: Sendable, Equatable {
    // Display
    /// auto, drm, fbdev or wayland.
    package var backend: DisplayBackend = .auto
    /// Connector name such as "HDMI-A-1"; nil picks the first connected one. The one-screen
    /// shorthand of a single `[[output]]` table.
    package var output: String? = nil
    /// How the carousel is shown on several screens (`[[output]]` tables).
    package var layout: OutputLayout = .mirror
    /// The `[[output]]` tables in file order; empty when there are none.
    package var outputs: [OutputTable] = []
    /// "WIDTHxHEIGHT" or "WIDTHxHEIGHT@HZ"; nil uses the preferred mode.
    package var mode: String? = nil
    /// Counter-clockwise degrees: 0, 90, 180 or 270.
    package var rotation: Int = 0
    /// Force legacy drmModeSetCrtc/PageFlip even when atomic is available.
    package var forceLegacy: Bool = false
    // Input
    package var seat: String = "seat0"
    package var touch: Bool = true
    package var keyboard: Bool = true
    package var pointer: Bool = true
    /// Seconds without an event after which a contact counts as lifted (cheap panels report
    /// phantom contacts that never end); 0 never times out.
    package var touchTimeout: Double = 20
    // Media
    /// Image directory; relative paths are relative to the config directory.
    package var media: String = "images"
    /// Pictures with more pixels are refused from their header, before any decode.
    package var maxImagePixels: Int = 100_000_000
    /// Memory for decoded cards.
    package var cacheMB: Int = 64
    // Wall-clock sync
    /// off, or wallclock: item k shows in the same wall-clock window on every box.
    package var sync: SyncMode = .off
    /// Seconds since 1970 the cycle counts from (`epoch`, RFC 3339 in the file).
    package var epoch: Double = 946_684_800
    /// Seconds without a touch before a touched screen goes back to the clock.
    package var syncResume: Double = 30
    // Screen power and dayparting
    /// When the screen is lit (`[[screen]]` tables); empty: always.
    package var screenSchedule: [WeeklyWindow] = []
    /// How long a touch wakes a screen the schedule has turned off.
    package var wakeMinutes: Double = 5
    /// Playlists by time of day (`[[playlist]]` tables); the first matching one wins.
    package var dayparts: [Daypart] = []
    /// Disk for decoded cards under the unit's CacheDirectory= (`CardCache`); 0 switches it off.
    package var diskCacheMB: Int = 256

    package static let rotations = [0, 90, 180, 270]

    /// Every setting at its default.
    package init() {}

    /// The screens to drive: the `[[output]]` tables, or `output` (with `mode`) as one table,
    /// or [] for every connected connector. `config` is the top-level carousel settings.
    package func outputTables(_ config: CarouselConfig) -> [OutputTable] {
        if !outputs.isEmpty { return outputs }
        guard let output else { return [] }
        return [OutputTable(name: output, mode: mode, config: config)]
    }

    /// Why `rotation` is refused, or nil (shared by the top level and `[[output]]`).
    package static func rotationProblem(_ rotation: Int) -> String? {
        rotations.contains(rotation) ? nil : "\(rotation) is not allowed; allowed 0, 90, 180, 270"
    }

    /// Why `mode` is refused, or nil (shared by the top level and `[[output]]`).
    package static func modeProblem(_ mode: String) -> String? {
        DisplayMode(parsing: mode) != nil ? nil
            : "\"\(mode)\" is not a mode; allowed WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1920x1080@60"
    }

    package static let emptyOutputMessage = "\"\" is empty; allowed a connector name such as HDMI-A-1"

    /// Every problem, each naming the key, the value and what is allowed; empty when valid.
    package func validate() -> [ConfigIssue] {
        var issues: [ConfigIssue] = []
        func intRange(_ key: String, _ value: Int, _ range: ClosedRange<Int>) {
            if !range.contains(value) {
                issues.append(ConfigIssue(key: key, message:
                    "\(value) is out of range; allowed \(range.lowerBound)...\(range.upperBound)"))
            }
        }
        if let message = Self.rotationProblem(rotation) { issues.append(ConfigIssue(key: "rotation", message: message)) }
        if let mode, let message = Self.modeProblem(mode) { issues.append(ConfigIssue(key: "mode", message: message)) }
        if let output, output.isEmpty { issues.append(ConfigIssue(key: "output", message: Self.emptyOutputMessage)) }
        if seat.isEmpty {
            issues.append(ConfigIssue(key: "seat", message: "\"\" is empty; allowed a seat name such as seat0"))
        }
        if media.isEmpty {
            issues.append(ConfigIssue(key: "media", message: "\"\" is empty; allowed a directory path"))
        }
        intRange("max_image_pixels", maxImagePixels, 1...1_000_000_000)
        intRange("cache_mb", cacheMB, 8...4096)
        if !(0.1...1440).contains(wakeMinutes) {
            issues.append(ConfigIssue(key: "wake_minutes", message: "\(wakeMinutes) is out of range; allowed 0.1...1440"))
        }
        if !(1...86_400).contains(syncResume) {
            issues.append(ConfigIssue(key: "sync_resume", message: "\(syncResume) is out of range; allowed 1...86400"))
        }
        intRange("disk_cache_mb", diskCacheMB, 0...1_048_576)
        if !(0...86_400).contains(touchTimeout) {
            issues.append(ConfigIssue(key: "touch_timeout", message: "\(touchTimeout) is out of range; allowed 0...86400 (0: never)"))
        }
        return issues
    }
}

/// Whether screens page by the wall clock (`sync`).
package enum SyncMode: String, CaseIterable, Sendable {
    case off, wallclock
}
