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
    public init(time: Double, samples: [TouchSample]) { self.time = time; self.samples = samples }
}
