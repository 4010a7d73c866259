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
    /// How frames reach a KMS screen (`force_legacy`, `planes`).
    package var kms = KMSSettings()
    package var input = InputSettings()
    package var media = MediaSettings()
    package var sync = SyncSettings()
    package var schedule = ScheduleSettings()
    package var reporting = ReportingSettings()

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
        if let file = reporting.metricsFile, !file.hasPrefix("/") || file.hasSuffix("/") {
            issues.append(ConfigIssue(key: "metrics_file", message:
                "\"\(file)\" is not an absolute file path; allowed e.g. /var/lib/prometheus/node-exporter/carouseld.prom"))
        }
        if let directory = media.cacheDirectory, !directory.hasPrefix("/") {
            issues.append(ConfigIssue(key: "cache_dir", message:
                "\"\(directory)\" is not an absolute path; allowed e.g. /data/carouseld-cache (a writable partition)"))
        }
        issues += schedule.tv.validate()
        if input.seat.isEmpty {
            issues.append(ConfigIssue(key: "seat", message: "\"\" is empty; allowed a seat name such as seat0"))
        }
        if schedule.backlight.isEmpty || schedule.backlight.contains("/") {
            issues.append(ConfigIssue(key: "backlight", message:
                "\"\(schedule.backlight)\" is not allowed; allowed \"auto\", \"off\" or a name in /sys/class/backlight such as \"intel_backlight\""))
        }
        if media.directory.isEmpty {
            issues.append(ConfigIssue(key: "media", message: "\"\" is empty; allowed a directory path"))
        }
        intRange("max_image_pixels", media.maxImagePixels, 1...1_000_000_000)
        intRange("cache_mb", media.cacheMB, 8...4096)
        if !(0.1...1440).contains(schedule.wakeMinutes) {
            issues.append(ConfigIssue(key: "wake_minutes", message: "\(schedule.wakeMinutes) is out of range; allowed 0.1...1440"))
        }
        if !(1...86_400).contains(sync.resume) {
            issues.append(ConfigIssue(key: "sync_resume", message: "\(sync.resume) is out of range; allowed 1...86400"))
        }
        intRange("disk_cache_mb", media.diskCacheMB, 0...1_048_576)
        if !(0...86_400).contains(input.touchTimeout) {
            issues.append(ConfigIssue(key: "touch_timeout", message: "\(input.touchTimeout) is out of range; allowed 0...86400 (0: never)"))
        }
        return issues
    }
}

/// How frames reach a KMS screen.
package struct KMSSettings: Sendable, Equatable {
    /// Legacy drmModeSetCrtc/PageFlip even when atomic is available (`force_legacy`).
    package var forceLegacy: Bool = false
    /// Cards on overlay planes where the driver allows (`planes`).
    package var planes: PlaneMode = .auto
    package init() {}
}

/// Whether cards may go on overlay planes (`planes`): "auto" where the CRTC offers enough and
/// a TEST_ONLY commit accepts them, else composed; "off" composes every frame.
package enum PlaneMode: String, CaseIterable, Sendable {
    case auto, off
}

/// Whether screens page by the wall clock (`sync`).
package enum SyncMode: String, CaseIterable, Sendable {
    case off, wallclock
}

/// What the box tells a fleet's tools besides `state.json` and the journal.
package struct ReportingSettings: Sendable, Equatable {
    /// Prometheus textfile (`metrics_file`), for node-exporter's textfile collector; nil: off.
    package var metricsFile: String? = nil
    package init() {}
}

/// Which input devices drive the carousel.
package struct InputSettings: Sendable, Equatable {
    package var seat: String = "seat0"
    package var touch: Bool = true
    package var keyboard: Bool = true
    package var pointer: Bool = true
    /// Seconds without an event after which a contact counts as lifted (cheap panels report
    /// phantom contacts that never end); 0 never times out.
    package var touchTimeout: Double = 20
    package init() {}
}

/// Where the pictures are and how much memory and disk their cards may take.
package struct MediaSettings: Sendable, Equatable {
    /// Image directory (`media`); relative paths are relative to the config directory.
    package var directory: String = "images"
    /// Pictures with more pixels are refused from their header, before any decode.
    package var maxImagePixels: Int = 100_000_000
    /// Memory for decoded cards.
    package var cacheMB: Int = 64
    /// Disk for decoded cards under the unit's CacheDirectory= (`CardCache`); 0 switches it off.
    package var diskCacheMB: Int = 256
    /// `cache_dir`: the card cache and kept frames in this directory instead of the unit's
    /// CacheDirectory= (a data partition that outlives an overlay root); read at start.
    package var cacheDirectory: String?
    package init() {}
}

/// Wall-clock sync: item k shows in the same wall-clock window on every box.
package struct SyncSettings: Sendable, Equatable {
    /// off, or wallclock (`sync`).
    package var mode: SyncMode = .off
    /// Seconds since 1970 the cycle counts from (`epoch`, RFC 3339 in the file).
    package var epoch: Double = 946_684_800
    /// Seconds without a touch before a touched screen goes back to the clock (`sync_resume`).
    package var resume: Double = 30
    /// When the wall clock is believed (`trust_clock`): the schedules and sync wait for it.
    package var trustClock: ClockTrustMode = .synchronised
    package init() {}
}

/// When the wall clock is believed (`trust_clock`): once NTP has synchronised it (a box
/// without an RTC boots with a stale time), or from the start (an RTC and no network).
package enum ClockTrustMode: String, CaseIterable, Sendable {
    case synchronised, always
}

/// Screen power and dayparting by the time of day.
package struct ScheduleSettings: Sendable, Equatable {
    /// When the screen is lit (`[[screen]]` tables); empty: always.
    package var screens: [WeeklyWindow] = []
    /// How long a touch wakes a screen the schedule has turned off.
    package var wakeMinutes: Double = 5
    /// Playlists by time of day (`[[playlist]]` tables); the first matching one wins.
    package var dayparts: [Daypart] = []
    /// The panel backlight switched with the screen (`backlight`): "auto" (the one the kernel
    /// registered under the screen's connector), "off", or a name in /sys/class/backlight.
    package var backlight: String = "auto"
    /// How a change of the screen's power reaches the TV (HDMI-CEC).
    package var tv = TVSettings()
    package init() {}
}

/// HDMI-CEC: the TV follows the screen's power (`cec`, `cec_off_delay`, `cec_on_delay`).
package struct TVSettings: Sendable, Equatable {
    /// "auto" (the adapter of a screen's connector, where the driver says which), "off", or a
    /// device such as "/dev/cec0".
    package var cec: String = "auto"
    /// Seconds from <Standby> to blanking the CRTC (piSignage waits 30).
    package var offDelay: Double = 0
    /// Seconds from the first <Image View On> and <Active Source> to the repeat (0: none).
    package var onDelay: Double = 10
    package init() {}

    package static let delayRange: ClosedRange<Double> = 0...3600

    package func validate() -> [ConfigIssue] {
        var issues: [ConfigIssue] = []
        if cec != "auto" && cec != "off" && !(cec.hasPrefix("/dev/") && cec.count > 5) {
            issues.append(ConfigIssue(key: "cec", message:
                "\"\(cec)\" is not allowed; allowed \"auto\", \"off\" or a device such as \"/dev/cec0\""))
        }
        for (key, value) in [("cec_off_delay", offDelay), ("cec_on_delay", onDelay)] where !Self.delayRange.contains(value) {
            issues.append(ConfigIssue(key: key, message: "\(value) is out of range; allowed 0...3600"))
        }
        return issues
    }
}

/// Which kind of display to drive: a Wayland compositor when one is named in the environment,
/// else KMS when a card exists, else fbdev (`auto`); or one of them forced by config or command line.
package enum DisplayBackend: String, CaseIterable, Sendable {
    case auto, drm, fbdev, wayland
}

/// A display mode request parsed from `WIDTHxHEIGHT[@HZ]`.
package struct DisplayMode: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var refresh: Int?
    package init?(parsing text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let dims = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard dims.count == 2, let w = Int(dims[0]), let h = Int(dims[1]),
              (1...16384).contains(w), (1...16384).contains(h) else { return nil }
        width = w; height = h
        if parts.count == 2 {
            guard let hz = Int(parts[1]), (1...1000).contains(hz) else { return nil }
            refresh = hz
        }
    }
}
