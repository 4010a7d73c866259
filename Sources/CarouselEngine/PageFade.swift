/// How auto-advance, `ctl next` and wall-clock sync change pages (`transition`); a touch always
/// slides, since the finger moves the strip.
public enum TransitionStyle: String, Sendable, Equatable, CaseIterable {
    /// The spring moves the strip one page (the default).
    case slide
    /// The next page fades in over the one on screen, in place (`fade_duration`).
    case fade
    /// The next page at once.
    case cut
}

/// The page change's style and the fade's length.
public struct PageTransition: Sendable, Equatable {
    public var style: TransitionStyle = .slide
    /// Seconds a fade takes.
    public var fadeDuration: Double = 0.8
    public init() {}
}

/// A crossfade between two pages, a state of the layout like the spring's position: the strip
/// at rest on `fromPage`, and over it the strip at rest on `toPage` with its opacity rising
/// from 0 to 1 (smoothstep, so it starts and ends gently). At 0 the frame is the first page at
/// rest and at 1 the second, pixel for pixel.
struct PageFade: Sendable, Equatable {
    var fromPage: Int
    var toPage: Int
    var startTime: Double
    var duration: Double

    /// 0 at the start, 1 at the end and after.
    func progress(at time: Double) -> Double {
        guard duration > 0 else { return 1 }
        let x = min(max((time - startTime) / duration, 0), 1)
        return x * x * (3 - 2 * x)
    }

    func isDone(at time: Double) -> Bool { time >= startTime + duration }
}
