import CarouselEngine
import TOMLKit

/// The keys of `carouseld.conf`, one per `CarouselConfig` property, each with the TOML type
/// it accepts. `apply` stores a value, or returns a message naming the expected type.
struct ConfigKey: Sendable {
    let name: String
    let apply: @Sendable (inout CarouselConfig, any TOMLValueConvertible) -> String?

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

    static func number(_ name: String, _ path: WritableKeyPath<CarouselConfig, Double> & Sendable) -> ConfigKey {
        ConfigKey(name: name) { config, value in
            guard let d = numberValue(value) else { return expected("a number", value) }
            config[keyPath: path] = d
            return nil
        }
    }

    static func integer(_ name: String, _ path: WritableKeyPath<CarouselConfig, Int> & Sendable) -> ConfigKey {
        ConfigKey(name: name) { config, value in
            // 2.0 is accepted as 2; 2.5 is not an integer.
            guard let i = value.int ?? value.double.flatMap({ Int(exactly: $0) }) else {
                return expected("an integer", value)
            }
            config[keyPath: path] = i
            return nil
        }
    }

    static func bool(_ name: String, _ path: WritableKeyPath<CarouselConfig, Bool> & Sendable) -> ConfigKey {
        ConfigKey(name: name) { config, value in
            guard let b = value.bool else { return expected("true or false", value) }
            config[keyPath: path] = b
            return nil
        }
    }

    static func string(_ name: String, _ path: WritableKeyPath<CarouselConfig, String> & Sendable) -> ConfigKey {
        ConfigKey(name: name) { config, value in
            guard let s = value.string else { return expected("a string", value) }
            config[keyPath: path] = s
            return nil
        }
    }

    static func optionalString(_ name: String, _ path: WritableKeyPath<CarouselConfig, String?> & Sendable) -> ConfigKey {
        ConfigKey(name: name) { config, value in
            guard let s = value.string else { return expected("a string", value) }
            config[keyPath: path] = s
            return nil
        }
    }

    /// Pixels as a number, or a percentage of the screen as a string such as "80%".
    static func length(_ name: String, _ path: WritableKeyPath<CarouselConfig, Length> & Sendable) -> ConfigKey {
        ConfigKey(name: name) { config, value in
            if let px = numberValue(value) { config[keyPath: path] = .pixels(px); return nil }
            if let s = value.string, s.hasSuffix("%"),
               let percent = Double(s.dropLast()), percent.isFinite {
                config[keyPath: path] = .fraction(percent / 100)
                return nil
            }
            return expected("a number of pixels or a percentage string such as \"80%\"", value)
        }
    }

    static func color(_ name: String, _ path: WritableKeyPath<CarouselConfig, RGB> & Sendable) -> ConfigKey {
        ConfigKey(name: name) { config, value in
            guard let s = value.string, s.hasPrefix("#"), let rgb = RGB(hex: s) else {
                return expected("a colour string \"#RRGGBB\"", value)
            }
            config[keyPath: path] = rgb
            return nil
        }
    }

    static func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ path: WritableKeyPath<CarouselConfig, E> & Sendable
    ) -> ConfigKey where E.RawValue == String {
        ConfigKey(name: name) { config, value in
            let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            guard let s = value.string, let e = E(rawValue: s) else { return expected(allowed, value) }
            config[keyPath: path] = e
            return nil
        }
    }

    // MARK: - Helpers

    private static func numberValue(_ value: any TOMLValueConvertible) -> Double? {
        if let d = value.double { return d }
        if let i = value.int { return Double(i) }
        return nil
    }

    /// "expected a number, got string \"abc\"".
    static func expected(_ what: String, _ value: any TOMLValueConvertible) -> String {
        "expected \(what), got \(value.type) \(shown(value))"
    }

    /// The value as written, shortened so one bad value cannot flood the log.
    private static func shown(_ value: any TOMLValueConvertible) -> String {
        let text: String
        switch value.type {
        case .string: text = "\"\(value.string ?? "")\""
        case .table: text = "{…}"
        case .array: text = "[…]"
        default: text = value.debugDescription
        }
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }
}
