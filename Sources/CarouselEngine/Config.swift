/// A length given either in pixels or as a fraction of the viewport.
public enum Length: Sendable, Equatable, CustomStringConvertible {
    case pixels(Double)
    case fraction(Double)

    public func resolve(in extent: Double) -> Double {
        switch self {
        case .pixels(let p): return p
        case .fraction(let f): return f * extent
        }
    }
    public var description: String {
        switch self {
        case .pixels(let p): return "\(formatNumber(p))"
        case .fraction(let f): return "\"\(formatNumber(f * 100))%\""
        }
    }
}

/// How a picture fills its card.
public enum FitMode: String, Sendable, Equatable, CaseIterable {
    /// Crop to fill the card.
    case cover
    /// Letterbox inside the card in the background colour.
    case contain
}

/// Where the page dots sit.
public enum DotsPosition: String, Sendable, Equatable, CaseIterable {
    case bottom, top
}

/// Every setting the engine uses, with defaults. The shell's own settings (display, input,
/// media, memory) are `ShellSettings` in the executable. carouseld.conf maps one snake_case key
/// to one property.
public struct CarouselConfig: Sendable, Equatable {
    // Slideshow
    /// Seconds of rest before auto-advancing; 0 disables auto-advance.
    public var interval: Double = 5
    // Layout
    public var cardWidth: Length = .fraction(0.8)
    public var cardHeight: Length = .fraction(0.8)
    /// Gap between neighbouring cards, in pixels.
    public var spacing: Double = 32
    /// Snap to groups of this many cards.
    public var cardsPerPage: Int = 1
    /// How the centre card stands out from the cards beside it.
    public var emphasis = CardEmphasis()
    public var fit: FitMode = .cover
    public var background: RGB = RGB(0x101010)
    public var dots = DotStyle()
    public var gesture = GestureTuning()
    /// How auto-advance, `ctl next` and sync change pages: slide, fade or cut.
    public var transition = PageTransition()
    public init() {}
}

/// Scale and opacity of the centre card and of cards one step or more away.
public struct CardEmphasis: Sendable, Equatable {
    public var centerScale: Double = 1.0
    public var sideScale: Double = 0.85
    public var centerOpacity: Double = 1.0
    public var sideOpacity: Double = 0.6
    public init() {}
}

/// The page dots.
public struct DotStyle: Sendable, Equatable {
    public var shown: Bool = true
    public var size: Double = 12
    public var spacing: Double = 12
    public var color: RGB = RGB(0x606060)
    public var activeColor: RGB = RGB(0xFFFFFF)
    public var position: DotsPosition = .bottom
    /// Distance of the dots' centre line from the screen edge, in pixels.
    public var margin: Double = 32
    public init() {}
}

/// How touches become pages, and the spring that settles them (SwiftUI-style).
public struct GestureTuning: Sendable, Equatable {
    public var springResponse: Double = 0.5
    public var springDamping: Double = 0.825
    /// Movement in pixels before a touch becomes a drag (Android: 8 dp).
    public var touchSlop: Double = 8
    /// Release speed in px/s at or above which a release pages in its direction.
    public var flingVelocity: Double = 400
    /// Fraction of a page that must be dragged to page without a fling.
    public var pageThreshold: Double = 0.5
    public var maxPagesPerGesture: Int = 1
    /// Longest touch, in seconds, that still counts as a tap.
    public var tapTimeout: Double = 0.3
    public init() {}
}

/// One problem with a configuration value: the key, the value and what is allowed.
public struct ConfigIssue: Sendable, Equatable, CustomStringConvertible {
    public var key: String
    public var message: String
    public init(key: String, message: String) { self.key = key; self.message = message }
    public var description: String { "\(key): \(message)" }
}

extension CarouselConfig {
    /// Every problem with the values, each naming the key, the value and the allowed range.
    /// An empty array means the config is valid.
    public func validate() -> [ConfigIssue] {
        var issues: [ConfigIssue] = []
        func range(_ key: String, _ value: Double, _ lo: Double, _ hi: Double, _ unit: String = "") {
            if !(value >= lo && value <= hi) {
                issues.append(ConfigIssue(key: key, message:
                    "\(formatNumber(value)) is out of range; allowed \(formatNumber(lo))...\(formatNumber(hi))\(unit)"))
            }
        }
        func intRange(_ key: String, _ value: Int, _ lo: Int, _ hi: Int) {
            if value < lo || value > hi {
                issues.append(ConfigIssue(key: key, message: "\(value) is out of range; allowed \(lo)...\(hi)"))
            }
        }
        func length(_ key: String, _ value: Length) {
            switch value {
            case .pixels(let p): range(key, p, 1, 16384, " pixels")
            case .fraction(let f):
                if !(f > 0 && f <= 1) {
                    issues.append(ConfigIssue(key: key, message:
                        "\(value) is out of range; allowed a percentage in (0%...100%] or 1...16384 pixels"))
                }
            }
        }
        range("interval", interval, 0, 86_400, " seconds (0 disables)")
        length("card_width", cardWidth)
        length("card_height", cardHeight)
        range("spacing", spacing, 0, 4096, " pixels")
        intRange("cards_per_page", cardsPerPage, 1, 16)
        range("center_scale", emphasis.centerScale, 0.1, 2)
        range("side_scale", emphasis.sideScale, 0.1, 2)
        range("center_opacity", emphasis.centerOpacity, 0, 1)
        range("side_opacity", emphasis.sideOpacity, 0, 1)
        range("dot_size", dots.size, 1, 256, " pixels")
        range("dot_spacing", dots.spacing, 0, 1024, " pixels")
        range("dots_margin", dots.margin, 0, 4096, " pixels")
        range("spring_response", gesture.springResponse, 0.05, 5, " seconds")
        range("spring_damping", gesture.springDamping, 0.1, 4)
        range("touch_slop", gesture.touchSlop, 0, 200, " pixels")
        range("fling_velocity", gesture.flingVelocity, 1, 100_000, " px/s")
        range("page_threshold", gesture.pageThreshold, 0.05, 0.95)
        intRange("max_pages_per_gesture", gesture.maxPagesPerGesture, 1, 100)
        range("tap_timeout", gesture.tapTimeout, 0.05, 2, " seconds")
        range("fade_duration", transition.fadeDuration, 0.05, 10, " seconds")
        return issues
    }
}

/// Prints 5 as "5" and 0.5 as "0.5", for messages.
public func formatNumber(_ v: Double) -> String {
    if v.isFinite, v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
    return String(v)
}
