import CarouselConfig
import CarouselCore
import CarouselEngine
import CWayland
import Glibc

/// The compositor's seat: wl_touch, wl_pointer and wl_keyboard, turned into `DeviceEvent`s by
/// `WaylandInputEvents` and into engine actions by the same `InputTranslator` as libinput's.
/// libinput is not opened under Wayland: the compositor owns the devices.
package final class WaylandSeat {
    private let proxy: OpaquePointer
    private var touch: OpaquePointer?
    private var pointer: OpaquePointer?
    private var keyboard: OpaquePointer?
    private var name = "seat"
    private var events = WaylandInputEvents()
    private var translator: InputTranslator
    /// Touch (or pointer) changes waiting for their frame event.
    private var pendingTouch: [DeviceEvent] = []
    private var pendingPointer: [DeviceEvent] = []
    /// Buffer pixels per surface unit: positions arrive in surface (logical) coordinates and
    /// the carousel is drawn at physical pixels.
    package var scale = 1.0
    /// What the engine must do, in order: the daemon applies it.
    package var onActions: (([InputAction]) -> Void)?

    package init(proxy: OpaquePointer, settings: ShellSettings, screen: Size) {
        self.proxy = proxy
        translator = InputTranslator(settings: Self.surfaceSettings(settings), screen: screen)
        wl_seat_add_listener(proxy, Self.seatListener, listenerData(self))
    }

    /// A reload or a new surface size. Rotation is the compositor's job: positions arrive in
    /// surface coordinates, already turned.
    package func reconfigure(settings: ShellSettings, screen: Size) {
        translator.reconfigure(settings: Self.surfaceSettings(settings), screen: screen)
    }

    /// Called once the start-up round trip has announced the seat's devices.
    package func startupFinished() { translator.startupFinished() }

    /// When a contact down will have sent nothing for `touch_timeout`.
    package var nextStuckDeadline: Double? { translator.nextStuckDeadline }

    /// Lifts the contacts that sent nothing for `touch_timeout` by `now`.
    package func expireStuckTouches(now: Double) -> [InputAction] { translator.expireStuckTouches(now: now) }

    private static func surfaceSettings(_ settings: ShellSettings) -> ShellSettings {
        var surface = settings
        surface.rotation = 0
        return surface
    }

    private func deliver(_ batch: [DeviceEvent]) {
        let actions = translator.translate(batch)
        if !actions.isEmpty { onActions?(actions) }
    }

    private func capabilities(_ raw: UInt32) {
        var caps: DeviceCapabilities = []
        if raw & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0 { caps.insert(.touch) }
        if raw & WL_SEAT_CAPABILITY_POINTER.rawValue != 0 { caps.insert(.pointer) }
        if raw & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0 { caps.insert(.keyboard) }
        let data = listenerData(self)
        if caps.contains(.touch), touch == nil, let t = wl_seat_get_touch(proxy) {
            touch = t; wl_touch_add_listener(t, Self.touchListener, data)
        } else if !caps.contains(.touch), let t = touch { wl_touch_destroy(t); touch = nil; pendingTouch.removeAll() }
        if caps.contains(.pointer), pointer == nil, let p = wl_seat_get_pointer(proxy) {
            pointer = p; wl_pointer_add_listener(p, Self.pointerListener, data)
        } else if !caps.contains(.pointer), let p = pointer { wl_pointer_destroy(p); pointer = nil; pendingPointer.removeAll() }
        if caps.contains(.keyboard), keyboard == nil, let k = wl_seat_get_keyboard(proxy) {
            keyboard = k; wl_keyboard_add_listener(k, Self.keyboardListener, data)
        } else if !caps.contains(.keyboard), let k = keyboard { wl_keyboard_destroy(k); keyboard = nil }
        deliver(events.seatCapabilities(caps, seat: name, now: MonotonicClock.now()))
    }

    /// Touches that arrived without a closing `wl_touch.frame` by the end of a dispatch (cage
    /// 0.1.4 sends none): delivered one group per timestamp, as if the frames had come.
    package func flushUnframed() {
        guard !pendingTouch.isEmpty else { return }
        let batch = events.framedByTime(pendingTouch)
        pendingTouch.removeAll()
        deliver(batch)
    }

    /// Pointer events come in groups closed by `frame` (wl_seat 5); older seats send no frame.
    private func pointerEvent(_ event: DeviceEvent) {
        pendingPointer.append(event)
        if let pointer, wl_proxy_get_version(pointer) < 5 { pointerFrame() }
    }

    private func pointerFrame() {
        let batch = pendingPointer
        pendingPointer.removeAll()
        deliver(batch)
    }

    nonisolated(unsafe) private static let seatListener = listenerTable(wl_seat_listener(
        capabilities: { data, _, caps in listenerOwner(data, as: WaylandSeat.self)?.capabilities(caps) },
        name: { data, _, name in listenerOwner(data, as: WaylandSeat.self)?.name = name.map { String(cString: $0) } ?? "seat" }))

    nonisolated(unsafe) private static let touchListener = listenerTable(wl_touch_listener(
        down: { data, _, _, ms, _, id, x, y in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            seat.pendingTouch.append(seat.events.touchDown(id: id, x: wl_fixed_to_double(x) * seat.scale, y: wl_fixed_to_double(y) * seat.scale,
                                                           ms: ms, now: MonotonicClock.now()))
        },
        up: { data, _, _, ms, id in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            seat.pendingTouch.append(seat.events.touchUp(id: id, ms: ms, now: MonotonicClock.now()))
        },
        motion: { data, _, ms, id, x, y in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            seat.pendingTouch.append(seat.events.touchMotion(id: id, x: wl_fixed_to_double(x) * seat.scale, y: wl_fixed_to_double(y) * seat.scale,
                                                             ms: ms, now: MonotonicClock.now()))
        },
        frame: { data, _ in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            let batch = seat.pendingTouch + [seat.events.touchFrame(now: MonotonicClock.now())]
            seat.pendingTouch.removeAll()
            seat.deliver(batch)
        },
        cancel: { data, _ in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            seat.pendingTouch.removeAll()
            seat.deliver(seat.events.touchCancel(now: MonotonicClock.now()))
        },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in }))

    nonisolated(unsafe) private static let pointerListener = listenerTable(wl_pointer_listener(
        enter: { data, _, _, _, x, y in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            seat.pointerEvent(seat.events.pointerEnter(x: wl_fixed_to_double(x) * seat.scale, y: wl_fixed_to_double(y) * seat.scale,
                                                       now: MonotonicClock.now()))
        },
        leave: { _, _, _, _ in },
        motion: { data, _, ms, x, y in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            seat.pointerEvent(seat.events.pointerMotion(x: wl_fixed_to_double(x) * seat.scale, y: wl_fixed_to_double(y) * seat.scale,
                                                        ms: ms, now: MonotonicClock.now()))
        },
        button: { data, _, _, ms, button, state in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            seat.pointerEvent(seat.events.pointerButton(button: button, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue,
                                                        ms: ms, now: MonotonicClock.now()))
        },
        axis: { _, _, _, _, _ in },
        frame: { data, _ in listenerOwner(data, as: WaylandSeat.self)?.pointerFrame() },
        axis_source: { _, _, _ in },
        axis_stop: { _, _, _, _ in },
        axis_discrete: { _, _, _, _ in },
        axis_value120: { _, _, _, _ in }))

    nonisolated(unsafe) private static let keyboardListener = listenerTable(wl_keyboard_listener(
        // The keymap is not needed (arrow keys are evdev codes): its descriptor is ours to close.
        keymap: { _, _, _, fd, _ in close(fd) },
        enter: { _, _, _, _, _ in },
        leave: { _, _, _, _ in },
        key: { data, _, _, ms, key, state in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            seat.deliver([seat.events.key(code: key, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue,
                                          ms: ms, now: MonotonicClock.now())])
        },
        modifiers: { _, _, _, _, _, _, _ in },
        repeat_info: { _, _, _, _ in }))
}
