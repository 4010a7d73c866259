/// What happened to one finger in a touch frame.
public enum TouchPhase: Sendable, Equatable {
    case down, move, up, cancel
}

/// One finger's state change, in screen pixels (already rotated to the screen).
public struct TouchSample: Sendable, Equatable {
    /// The slot (libinput seat slot); stable while the finger is down.
    public var slot: Int
    public var phase: TouchPhase
    public var x: Double
    public var y: Double
    public init(slot: Int, phase: TouchPhase, x: Double, y: Double) {
        self.slot = slot; self.phase = phase; self.x = x; self.y = y
    }
}

/// Everything that changed between two TOUCH_FRAME events, with the kernel timestamp in seconds.
public struct TouchFrame: Sendable, Equatable {
    public var time: Double
    public var samples: [TouchSample]
    /// The contacts on the glass once the frame is applied, as the source of the touches counts
    /// them in its one record of contacts (the input's `InputTranslator`; a contact it timed out
    /// counts as lifted). The gesture recogniser and the touch that wakes a screen read it and
    /// keep no set of fingers of their own, as libinput's touchpad code keeps one `struct tp_touch`
    /// per slot that every gesture reads.
    public var contactsDown: Int

    public init(time: Double, samples: [TouchSample], contactsDown: Int) {
        self.time = time; self.samples = samples; self.contactsDown = contactsDown
    }

    /// The contacts on the glass before the frame: its count, less the fingers it put down,
    /// plus those it lifted.
    public var contactsBefore: Int {
        max(0, samples.reduce(contactsDown) { count, sample in
            switch sample.phase {
            case .down: return count - 1
            case .move: return count
            case .up, .cancel: return count + 1
            }
        })
    }
}

/// What input asks of the carousel engine. Produced by `InputSource.dispatch()` (live) and by
/// the replay; both hand it to `CarouselEngine.apply(_:)`, so the two paths cannot drift apart.
package enum InputAction: Sendable, Equatable {
    /// Touch changes that happened together, in logical screen pixels, kernel time in seconds.
    case touch(TouchFrame)
    /// Page by this many pages (keyboard Left = -1, Right = +1).
    case page(Int, time: Double)
    /// The device carrying the touches went away: the strip springs back.
    case cancelTouches(time: Double)

    package var time: Double {
        switch self {
        case .touch(let frame): return frame.time
        case .page(_, let time), .cancelTouches(let time): return time
        }
    }
}

extension CarouselEngine {
    /// Applies one input action; the daemon's event loop and `carouseld replay` both call this.
    package mutating func apply(_ action: InputAction) -> [CarouselEvent] {
        switch action {
        case .touch(let frame): return handle(frame)
        case .page(let delta, let time): return page(by: delta, now: time)
        case .cancelTouches(let time): return cancelTouches(now: time)
        }
    }
}
