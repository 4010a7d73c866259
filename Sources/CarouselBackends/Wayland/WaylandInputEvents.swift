import CarouselCore

/// A Wayland seat's touch, pointer and keyboard in libinput's vocabulary (`DeviceEvent`), so
/// the daemon's one `InputTranslator` and engine handle them as on DRM. Pure: the protocol
/// listeners call it, and tests call it with no compositor.
///
/// - Touch: `wl_touch` ids become slots (an id is unique among the touches down, and may be
///   used again after its up); each `frame` closes a group, as libinput's TOUCH_FRAME does;
///   `cancel` (the compositor took the touches over) cancels every touch down, so the strip
///   springs back.
/// - Positions are surface coordinates, which are the logical screen's: the compositor has
///   already applied its own rotation.
/// - Times are the protocol's milliseconds, on the monotonic clock (`WaylandClock`).
package struct WaylandInputEvents {
    /// Device ids for the seat's three kinds of input (a seat has at most one of each).
    package static let touchDevice = 1, pointerDevice = 2, keyboardDevice = 3

    package private(set) var capabilities: DeviceCapabilities = []
    private var clock = WaylandClock()
    private var lastTouchTime: Double?

    /// `wl_seat.capabilities`: devices added and removed as the seat's kinds of input change.
    package mutating func seatCapabilities(_ new: DeviceCapabilities, seat: String, now: Double) -> [DeviceEvent] {
        var events: [DeviceEvent] = []
        for (kind, device, what) in [(DeviceCapabilities.touch, Self.touchDevice, "touch"),
                                     (.pointer, Self.pointerDevice, "pointer"),
                                     (.keyboard, Self.keyboardDevice, "keyboard")] {
            if new.contains(kind) && !capabilities.contains(kind) {
                events.append(.added(device: device, name: "\(seat) \(what)", capabilities: kind))
            } else if !new.contains(kind) && capabilities.contains(kind) {
                events.append(.removed(device: device, time: now))
            }
        }
        capabilities = new
        return events
    }

    package mutating func touchDown(id: Int32, x: Double, y: Double, ms: UInt32, now: Double) -> DeviceEvent {
        .touchDown(device: Self.touchDevice, slot: Int(id), x: x, y: y, time: stamp(ms, now))
    }

    package mutating func touchMotion(id: Int32, x: Double, y: Double, ms: UInt32, now: Double) -> DeviceEvent {
        .touchMotion(device: Self.touchDevice, slot: Int(id), x: x, y: y, time: stamp(ms, now))
    }

    package mutating func touchUp(id: Int32, ms: UInt32, now: Double) -> DeviceEvent {
        .touchUp(device: Self.touchDevice, slot: Int(id), time: stamp(ms, now))
    }

    /// `wl_touch.frame` carries no time: the group is stamped with its last event's.
    package mutating func touchFrame(now: Double) -> DeviceEvent {
        .touchFrame(device: Self.touchDevice, time: lastTouchTime ?? now)
    }

    /// `wl_touch.cancel`: every touch down is cancelled, in one group (the translator knows
    /// which are down).
    package func touchCancel(now: Double) -> [DeviceEvent] {
        let time = max(lastTouchTime ?? now, now)
        return [.touchesCancelled(device: Self.touchDevice, time: time), .touchFrame(device: Self.touchDevice, time: time)]
    }

    package mutating func pointerMotion(x: Double, y: Double, ms: UInt32, now: Double) -> DeviceEvent {
        .pointerMotionAbsolute(device: Self.pointerDevice, x: x, y: y, time: clock.seconds(ms: ms, now: now))
    }

    /// `wl_pointer.enter` carries no time: the pointer is where it entered, now. (A stamp made
    /// up from `now` would move the clock's anchor for a compositor with another time base.)
    package func pointerEnter(x: Double, y: Double, now: Double) -> DeviceEvent {
        .pointerMotionAbsolute(device: Self.pointerDevice, x: x, y: y, time: now)
    }

    package mutating func pointerButton(button: UInt32, pressed: Bool, ms: UInt32, now: Double) -> DeviceEvent {
        .pointerButton(device: Self.pointerDevice, button: Int(button), pressed: pressed,
                       time: clock.seconds(ms: ms, now: now))
    }

    /// `wl_keyboard.key` gives the evdev key code, as libinput does.
    package mutating func key(code: UInt32, pressed: Bool, ms: UInt32, now: Double) -> DeviceEvent {
        .key(device: Self.keyboardDevice, code: Int(code), pressed: pressed, time: clock.seconds(ms: ms, now: now))
    }

    /// Touch events a compositor sent with no closing `wl_touch.frame` (cage 0.1.4 sends none),
    /// grouped as libinput would have framed them: events with the same timestamp belong to one
    /// hardware report. One group per report keeps the velocity fit's samples apart; a single
    /// group would stack a whole swipe's motion at one instant.
    package func framedByTime(_ events: [DeviceEvent]) -> [DeviceEvent] {
        var framed: [DeviceEvent] = []
        var groupTime: Double?
        for event in events {
            let time = Self.time(of: event) ?? groupTime ?? 0
            if let open = groupTime, time != open { framed.append(.touchFrame(device: Self.touchDevice, time: open)) }
            framed.append(event)
            groupTime = time
        }
        if let open = groupTime { framed.append(.touchFrame(device: Self.touchDevice, time: open)) }
        return framed
    }

    private static func time(of event: DeviceEvent) -> Double? {
        switch event {
        case .touchDown(_, _, _, _, let t), .touchMotion(_, _, _, _, let t), .touchUp(_, _, let t),
             .touchCancel(_, _, let t), .touchesCancelled(_, let t), .touchFrame(_, let t): return t
        default: return nil
        }
    }

    private mutating func stamp(_ ms: UInt32, _ now: Double) -> Double {
        let time = clock.seconds(ms: ms, now: now)
        lastTouchTime = time
        return time
    }
}
