/// What the driving finger did, in the terms the engine acts on.
enum GestureAction: Sendable, Equatable {
    /// The driving finger touched down at a screen point.
    case press(x: Double, y: Double)
    /// The finger is dragging: the strip should sit `offset` px (x only) from where it was at the
    /// press. Follows the finger 1:1; the slop is subtracted so the drag starts without a jump.
    case drag(offset: Double)
    /// The driving finger lifted.
    case lift(Lift)
    /// The driving finger's touch was cancelled (palm, device gone).
    case cancel

    enum Lift: Sendable, Equatable {
        /// Lifted after a drag, with the finger's velocity in px/s.
        case drag(velocityX: Double, velocityY: Double)
        /// A short touch that stayed inside the slop; the point where it went down.
        case tap(x: Double, y: Double)
        /// Neither: a long press, or a touch that moved only vertically.
        case hold
    }
}

/// Turns touch samples into drag, tap and release actions for one driving finger.
///
/// The first finger down drives; every other finger is ignored. When the driving finger lifts
/// while others are still down, nobody drives until all fingers are up: a finger left over from
/// a pinch or a palm must not grab the strip mid-animation. How many fingers are down is the
/// input's count (`TouchFrame.contactsDown`), not a set kept here.
struct GestureRecognizer: Sendable, Equatable {
    var touchSlop: Double
    var tapTimeout: Double

    /// The input's count of contacts, as of the sample being fed (`TouchFrame.contactsDown`).
    var contactsDown = 0
    private var driver: Finger?

    private struct Finger: Sendable, Equatable {
        var slot: Int
        var downTime: Double
        var downX: Double, downY: Double
        var x: Double, y: Double
        var isDragging = false
        /// Finger x at which the drag began (the slop edge), so the strip moves 1:1 from there.
        var dragOriginX = 0.0
        var leftTapArea = false
        var tracker = VelocityTracker()
    }

    init(touchSlop: Double, tapTimeout: Double) {
        self.touchSlop = touchSlop; self.tapTimeout = tapTimeout
    }

    var isDriving: Bool { driver != nil }
    var isDragging: Bool { driver?.isDragging ?? false }

    /// One sample, with `contactsDown` already counting it.
    mutating func feed(_ sample: TouchSample, time: Double) -> [GestureAction] {
        let finite = sample.x.isFinite && sample.y.isFinite
        switch sample.phase {
        case .down:
            guard driver == nil, contactsDown == 1, finite else { return [] }
            var finger = Finger(slot: sample.slot, downTime: time, downX: sample.x, downY: sample.y,
                                x: sample.x, y: sample.y)
            finger.tracker.add(time: time, x: sample.x, y: sample.y)
            driver = finger
            return [.press(x: sample.x, y: sample.y)]
        case .move:
            guard driver?.slot == sample.slot, finite else { return [] }
            return move(to: sample.x, sample.y, time: time)
        case .up:
            guard let finger = driver, finger.slot == sample.slot else { return [] }
            // libinput's TOUCH_UP has no position; a shell may repeat the last one. Only a real
            // change is a final movement.
            var actions: [GestureAction] = []
            if finite, sample.x != finger.x || sample.y != finger.y {
                actions += move(to: sample.x, sample.y, time: time)
            }
            actions.append(.lift(lift(at: time)))
            driver = nil
            return actions
        case .cancel:
            guard driver?.slot == sample.slot else { return [] }
            driver = nil
            return [.cancel]
        }
    }

    /// Every finger is gone (device removed).
    mutating func cancelAll() -> [GestureAction] {
        contactsDown = 0
        guard driver != nil else { return [] }
        driver = nil
        return [.cancel]
    }

    /// Ends the current gesture without an action (reconfigure); fingers still down stay
    /// ignored until all have lifted.
    mutating func releaseDriver() { driver = nil }

    private mutating func move(to x: Double, _ y: Double, time: Double) -> [GestureAction] {
        guard var f = driver else { return [] }
        f.x = x; f.y = y
        f.tracker.add(time: time, x: x, y: y)
        let dx = x - f.downX, dy = y - f.downY
        if (dx * dx + dy * dy).squareRoot() > touchSlop { f.leftTapArea = true }
        if !f.isDragging, abs(dx) > touchSlop {
            f.isDragging = true
            f.dragOriginX = f.downX + (dx > 0 ? touchSlop : -touchSlop)
        }
        driver = f
        return f.isDragging ? [.drag(offset: x - f.dragOriginX)] : []
    }

    private func lift(at time: Double) -> GestureAction.Lift {
        guard let f = driver else { return .hold }
        if f.isDragging {
            let v = f.tracker.velocity(at: time)
            return .drag(velocityX: v.x, velocityY: v.y)
        }
        if !f.leftTapArea, time - f.downTime <= tapTimeout { return .tap(x: f.downX, y: f.downY) }
        return .hold
    }
}
