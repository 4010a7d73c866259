import CarouselEngine

/// The keys of `carouseld.conf`, one per `CarouselConfig` property, each with the TOML type
/// it accepts. `apply` stores a value, or returns a message naming the expected type.
struct ConfigKey: Sendable {
    let name: String
    let apply: @Sendable (inout CarouselConfig, TOMLValue) -> String?

    static let all: [ConfigKey] = [
        number("interval", \.interval),
        length("card_width", \.cardWidth),
        length("card_height", \.cardHeight),
        number("spacing", \.spacing),
        integer("cards_per_page", \.cardsPerPage),
        number("center_scale", \.centerScale),
        number("side_scale", \.sideScale),
        number("center_opacity", \.centerOpacity),
        number("side_opacity", \.sideOpacity),
        choice("fit", \.fit),
        color("background", \.background),
        bool("dots", \.dots),
        number("dot_size", \.dotSize),
        number("dot_spacing", \.dotSpacing),
        color("dot_color", \.dotColor),
        color("dot_active_color", \.dotActiveColor),
        choice("dots_position", \.dotsPosition),
        number("dots_margin", \.dotsMargin),
        number("spring_response", \.springResponse),
        number("spring_damping", \.springDamping),
        number("touch_slop", \.touchSlop),
        number("fling_velocity", \.flingVelocity),
        number("page_threshold", \.pageThreshold),
        integer("max_pages_per_gesture", \.maxPagesPerGesture),
        number("tap_timeout", \.tapTimeout),
        optionalString("output", \.output),
        optionalString("mode", \.mode),
        integer("rotation", \.rotation),
        bool("force_legacy", \.forceLegacy),
        string("seat", \.seat),
        bool("touch", \.touch),
        bool("keyboard", \.keyboard),
        bool("pointer", \.pointer),
        string("media", \.media),
        integer("max_image_pixels", \.maxImagePixels),
        integer("cache_mb", \.cacheMB),
    ]

    static let byName: [String: ConfigKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    // MARK: - One constructor per value type

    typealias Path<T> = WritableKeyPath<CarouselConfig, T> & Sendable

    static func number(_ name: String, _ path: Path<Double>) -> ConfigKey {
        typed(name, "a number", numberValue) { $0[keyPath: path] = $1 }
    }

    /// 2.0 is accepted as 2; 2.5 is not an integer.
    static func integer(_ name: String, _ path: Path<Int>) -> ConfigKey {
        typed(name, "an integer", { $0.int ?? $0.double.flatMap { Int(exactly: $0) } }) { $0[keyPath: path] = $1 }
    }

    static func bool(_ name: String, _ path: Path<Bool>) -> ConfigKey {
        typed(name, "true or false", \.bool) { $0[keyPath: path] = $1 }
    }

    static func string(_ name: String, _ path: Path<String>) -> ConfigKey {
        typed(name, "a string", \.string) { $0[keyPath: path] = $1 }
    }

    static func optionalString(_ name: String, _ path: Path<String?>) -> ConfigKey {
        typed(name, "a string", \.string) { $0[keyPath: path] = $1 }
    }

    /// Pixels as a number, or a percentage of the screen as a string such as "80%".
    static func length(_ name: String, _ path: Path<Length>) -> ConfigKey {
        typed(name, "a number of pixels or a percentage string such as \"80%\"", { value in
            if let px = numberValue(value) { return .pixels(px) }
            guard let s = value.string, s.hasSuffix("%"), let percent = Double(s.dropLast()), percent.isFinite else {
                return nil
            }
            return .fraction(percent / 100)
        }) { $0[keyPath: path] = $1 }
    }

    static func color(_ name: String, _ path: Path<RGB>) -> ConfigKey {
        typed(name, "a colour string \"#RRGGBB\"", { value in
            value.string.flatMap { $0.hasPrefix("#") ? RGB(hex: $0) : nil }
        }) { $0[keyPath: path] = $1 }
    }

    static func choice<E: RawRepresentable & CaseIterable & Sendable>(_ name: String, _ path: Path<E>) -> ConfigKey
    where E.RawValue == String {
        let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        return typed(name, allowed, { $0.string.flatMap(E.init(rawValue:)) }) { $0[keyPath: path] = $1 }
    }

    /// A key whose value `extract` converts (nil: wrong type, reported as expecting `what`).
    private static func typed<T>(_ name: String, _ what: String,
                                 _ extract: @escaping @Sendable (TOMLValue) -> T?,
                                 _ store: @escaping @Sendable (inout CarouselConfig, T) -> Void) -> ConfigKey {
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
    static func expected(_ what: String, _ value: TOMLValue) -> String {
        let shown = value.shown
        // Shortened, so one bad value cannot flood the log.
        return "expected \(what), got \(value.typeName) " + (shown.count > 60 ? String(shown.prefix(57)) + "..." : shown)
    }
}
