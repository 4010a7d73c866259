import CarouselCore
import CTOML
import CarouselEngine

/// What carouseld.conf sets: the engine's settings and the shell's.
package struct ConfigValues: Sendable, Equatable {
    package var config = CarouselConfig()
    package var shell = ShellSettings()

    /// Every range problem of both parts.
    package func validate() -> [ConfigIssue] { config.validate() + shell.validate() }
}

/// The keys of `carouseld.conf`, one per `CarouselConfig` or `ShellSettings` property, each with
/// the TOML type it accepts. `apply` stores a value, or returns a message naming the expected type.
package struct ConfigKey: Sendable {
    package let name: String
    package let apply: @Sendable (inout ConfigValues, TOMLValue) -> String?

    package static let all: [ConfigKey] = engine + shell

    /// The engine's keys (`CarouselConfig`): an `[[output]]` table may override them.
    package static let engine: [ConfigKey] = [
        number("interval", \.config.interval),
        length("card_width", \.config.cardWidth),
        length("card_height", \.config.cardHeight),
        number("spacing", \.config.spacing),
        integer("cards_per_page", \.config.cardsPerPage),
        number("center_scale", \.config.emphasis.centerScale),
        number("side_scale", \.config.emphasis.sideScale),
        number("center_opacity", \.config.emphasis.centerOpacity),
        number("side_opacity", \.config.emphasis.sideOpacity),
        choice("fit", \.config.fit),
        color("background", \.config.background),
        bool("dots", \.config.dots.shown),
        number("dot_size", \.config.dots.size),
        number("dot_spacing", \.config.dots.spacing),
        color("dot_color", \.config.dots.color),
        color("dot_active_color", \.config.dots.activeColor),
        choice("dots_position", \.config.dots.position),
        number("dots_margin", \.config.dots.margin),
        number("spring_response", \.config.gesture.springResponse),
        number("spring_damping", \.config.gesture.springDamping),
        number("touch_slop", \.config.gesture.touchSlop),
        number("fling_velocity", \.config.gesture.flingVelocity),
        number("page_threshold", \.config.gesture.pageThreshold),
        integer("max_pages_per_gesture", \.config.gesture.maxPagesPerGesture),
        number("tap_timeout", \.config.gesture.tapTimeout),
        choice("transition", \.config.transition.style),
        number("fade_duration", \.config.transition.fadeDuration),
    ]

    /// The shell's keys (`ShellSettings`): top level only.
    package static let shell: [ConfigKey] = [
        choice("backend", \.shell.backend),
        optionalString("output", \.shell.output),
        choice("layout", \.shell.layout),
        optionalString("mode", \.shell.mode),
        integer("rotation", \.shell.rotation),
        bool("force_legacy", \.shell.kms.forceLegacy),
        choice("planes", \.shell.kms.planes),
        string("seat", \.shell.input.seat),
        bool("touch", \.shell.input.touch),
        bool("keyboard", \.shell.input.keyboard),
        bool("pointer", \.shell.input.pointer),
        number("touch_timeout", \.shell.input.touchTimeout),
        string("media", \.shell.media.directory),
        integer("max_image_pixels", \.shell.media.maxImagePixels),
        integer("cache_mb", \.shell.media.cacheMB),
        choice("sync", \.shell.sync.mode),
        timestamp("epoch", \.shell.sync.epoch),
        number("sync_resume", \.shell.sync.resume),
        choice("trust_clock", \.shell.sync.trustClock),
        number("wake_minutes", \.shell.schedule.wakeMinutes),
        string("backlight", \.shell.schedule.backlight),
        integer("disk_cache_mb", \.shell.media.diskCacheMB),
        optionalString("cache_dir", \.shell.media.cacheDirectory),
        optionalString("metrics_file", \.shell.reporting.metricsFile),
        string("cec", \.shell.schedule.tv.cec),
        number("cec_off_delay", \.shell.schedule.tv.offDelay),
        number("cec_on_delay", \.shell.schedule.tv.onDelay),
    ]

    package static let byName: [String: ConfigKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
    package static let engineNames: Set<String> = Set(engine.map(\.name))

    // MARK: - One constructor per value type

    package typealias Path<T> = WritableKeyPath<ConfigValues, T> & Sendable

    package static func number(_ name: String, _ path: Path<Double>) -> ConfigKey {
        typed(name, "a number", numberValue) { $0[keyPath: path] = $1 }
    }

    /// 2.0 is accepted as 2; 2.5 is not an integer.
    package static func integer(_ name: String, _ path: Path<Int>) -> ConfigKey {
        typed(name, "an integer", { $0.int ?? $0.double.flatMap { Int(exactly: $0) } }) { $0[keyPath: path] = $1 }
    }

    package static func bool(_ name: String, _ path: Path<Bool>) -> ConfigKey {
        typed(name, "true or false", \.bool) { $0[keyPath: path] = $1 }
    }

    package static func string(_ name: String, _ path: Path<String>) -> ConfigKey {
        typed(name, "a string", \.string) { $0[keyPath: path] = $1 }
    }

    package static func optionalString(_ name: String, _ path: Path<String?>) -> ConfigKey {
        typed(name, "a string", \.string) { $0[keyPath: path] = $1 }
    }

    /// Pixels as a number, or a percentage of the screen as a string such as "80%".
    package static func length(_ name: String, _ path: Path<Length>) -> ConfigKey {
        typed(name, "a number of pixels or a percentage string such as \"80%\"", { value in
            if let px = numberValue(value) { return .pixels(px) }
            guard let s = value.string, s.hasSuffix("%"), let percent = Double(s.dropLast()), percent.isFinite else {
                return nil
            }
            return .fraction(percent / 100)
        }) { $0[keyPath: path] = $1 }
    }

    /// An RFC 3339 time, as a string or as TOML's own date-time, stored as seconds since 1970.
    package static func timestamp(_ name: String, _ path: Path<Double>) -> ConfigKey {
        typed(name, "an RFC 3339 time such as \"2000-01-01T00:00:00Z\"", { value in
            guard value.kind == CAROUSELD_TOML_STRING || value.kind == CAROUSELD_TOML_DATE_TIME else { return nil }
            return RFC3339.seconds(value.text)
        }) { $0[keyPath: path] = $1 }
    }

    package static func color(_ name: String, _ path: Path<RGB>) -> ConfigKey {
        typed(name, "a colour string \"#RRGGBB\"", { value in
            value.string.flatMap { $0.hasPrefix("#") ? RGB(hex: $0) : nil }
        }) { $0[keyPath: path] = $1 }
    }

    package static func choice<E: RawRepresentable & CaseIterable & Sendable>(_ name: String, _ path: Path<E>) -> ConfigKey
    where E.RawValue == String {
        let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        return typed(name, allowed, { $0.string.flatMap(E.init(rawValue:)) }) { $0[keyPath: path] = $1 }
    }

    /// A key whose value `extract` converts (nil: wrong type, reported as expecting `what`).
    private static func typed<T>(_ name: String, _ what: String,
                                 _ extract: @escaping @Sendable (TOMLValue) -> T?,
                                 _ store: @escaping @Sendable (inout ConfigValues, T) -> Void) -> ConfigKey {
        ConfigKey(name: name) { config, value in
            guard let converted = extract(value) else { return expected(what, value) }
            store(&config, converted)
            return nil
        }
    }

    // MARK: - Helpers

    @Sendable private static func numberValue(_ value: TOMLValue) -> Double? {
        if let d = value.double { return d }
        if let i = value.int { return Double(i) }
        return nil
    }

    /// "expected a number, got string \"abc\"".
    package static func expected(_ what: String, _ value: TOMLValue) -> String {
        let shown = value.shown
        // Shortened, so one bad value cannot flood the log.
        return "expected \(what), got \(value.typeName) " + (shown.count > 60 ? String(shown.prefix(57)) + "..." : shown)
    }
}
