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
    private var devices = SeatDevices()
    private var name = "seat"
    private var events = WaylandInputEvents()
    private let keymap = WaylandKeymap()
    /// One per window: its surface, the translator for its screen, its buffer scale.
    private var windows: [SeatWindow] = []
    /// Which window each touch, the pointer and the keyboard are on.
    private var focus = SeatFocus()
    /// Touch (or pointer) changes waiting for their frame event, with their window.
    private var pendingTouch: [(window: Int, event: DeviceEvent)] = []
    private var pendingPointer: [DeviceEvent] = []
    /// What the engine must do, in order, and for which window, until the backend takes it.
    private var actions: [(window: Int, action: InputAction)] = []

    package init(proxy: OpaquePointer) {
        self.proxy = proxy
        wl_seat_add_listener(proxy, Self.seatListener, listenerData(self))
    }

    /// The windows whose surfaces take input, in the backend's screen order.
    package func add(surface: OpaquePointer?, settings: ShellSettings, screen: Size) {
        // The devices are the seat's, one set for all windows: the first window's translator names them.
        windows.append(SeatWindow(surface: surface, translator: InputTranslator(
            settings: Self.surfaceSettings(settings), screen: screen, announceDevices: windows.isEmpty)))
    }

    /// A reload or a new surface size. Rotation is the compositor's job: positions arrive in
    /// surface coordinates, already turned.
    package func reconfigure(settings: ShellSettings, screens: [Size]) {
        for (i, screen) in screens.enumerated() where i < windows.count {
            windows[i].translator.reconfigure(settings: Self.surfaceSettings(settings), screen: screen)
        }
    }

    /// Window `index` has a new surface (its output came back), or none (it went).
    package func setSurface(_ surface: OpaquePointer?, window index: Int) {
        if windows.indices.contains(index) { windows[index].surface = surface }
    }

    /// Buffer pixels per surface unit of window `index`: positions arrive in surface (logical)
    /// coordinates and the carousel is drawn at physical pixels.
    package func setScale(_ scale: Double, window index: Int) {
        if windows.indices.contains(index) { windows[index].scale = scale }
    }

    /// Called once the start-up round trip has announced the seat's devices.
    package func startupFinished() { for i in windows.indices { windows[i].translator.startupFinished() } }

    /// When a contact down will have sent nothing for `touch_timeout`.
    package var nextStuckDeadline: Double? { windows.compactMap(\.translator.nextStuckDeadline).min() }

    /// Lifts the contacts that sent nothing for `touch_timeout` by `now`, per window.
    package func expireStuckTouches(now: Double) -> [(window: Int, action: InputAction)] {
        windows.indices.flatMap { i in windows[i].translator.expireStuckTouches(now: now).map { (window: i, action: $0) } }
    }

    private static func surfaceSettings(_ settings: ShellSettings) -> ShellSettings {
        var surface = settings
        surface.rotation = 0
        return surface
    }

    private func window(of surface: OpaquePointer?) -> Int {
        windows.firstIndex { $0.surface != nil && $0.surface == surface } ?? 0
    }

    private func deliver(_ batch: [DeviceEvent], window index: Int) {
        guard windows.indices.contains(index) else { return }
        let actions = windows[index].translator.translate(batch)
        self.actions += actions.map { (window: index, action: $0) }
    }

    /// Pending touches, each window's closed by a frame event.
    private func deliverTouches(framed: Bool) {
        let pending = pendingTouch
        pendingTouch.removeAll()
        for index in Set(pending.map(\.window)).sorted() {
            let batch = pending.filter { $0.window == index }.map(\.event)
            deliver(framed ? batch + [events.touchFrame(now: MonotonicClock.now())] : events.framedByTime(batch), window: index)
        }
    }

    private func capabilities(_ raw: UInt32) {
        var caps: DeviceCapabilities = []
        if raw & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0 { caps.insert(.touch) }
        if raw & WL_SEAT_CAPABILITY_POINTER.rawValue != 0 { caps.insert(.pointer) }
        if raw & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0 { caps.insert(.keyboard) }
        let data = listenerData(self)
        if caps.contains(.touch), devices.touch == nil, let t = wl_seat_get_touch(proxy) {
            devices.touch = t; wl_touch_add_listener(t, Self.touchListener, data)
        } else if !caps.contains(.touch), let t = devices.touch { wl_touch_destroy(t); devices.touch = nil; pendingTouch.removeAll() }
        if caps.contains(.pointer), devices.pointer == nil, let p = wl_seat_get_pointer(proxy) {
            devices.pointer = p; wl_pointer_add_listener(p, Self.pointerListener, data)
        } else if !caps.contains(.pointer), let p = devices.pointer { wl_pointer_destroy(p); devices.pointer = nil; pendingPointer.removeAll() }
        if caps.contains(.keyboard), devices.keyboard == nil, let k = wl_seat_get_keyboard(proxy) {
            devices.keyboard = k; wl_keyboard_add_listener(k, Self.keyboardListener, data)
        } else if !caps.contains(.keyboard), let k = devices.keyboard { wl_keyboard_destroy(k); devices.keyboard = nil }
        let added = events.seatCapabilities(caps, seat: name, now: MonotonicClock.now())
        for index in windows.indices { deliver(added, window: index) }
    }

    /// What a dispatch of the connection made, in order, with each action's window. Touches
    /// that arrived without a closing `wl_touch.frame` (cage 0.1.4 sends none) are closed
    /// first, one group per timestamp, as if the frames had come.
    package func takeActions() -> [(window: Int, action: InputAction)] {
        if !pendingTouch.isEmpty { deliverTouches(framed: false) }
        defer { actions.removeAll() }
        return actions
    }

    /// Pointer events come in groups closed by `frame` (wl_seat 5); older seats send no frame.
    private func pointerEvent(_ event: DeviceEvent) {
        pendingPointer.append(event)
        if let pointer = devices.pointer, wl_proxy_get_version(pointer) < 5 { pointerFrame() }
    }

    private func pointerFrame() {
        let batch = pendingPointer
        pendingPointer.removeAll()
        deliver(batch, window: focus.pointer)
    }

    nonisolated(unsafe) private static let seatListener = listenerTable(wl_seat_listener(
        capabilities: { data, _, caps in listenerOwner(data, as: WaylandSeat.self)?.capabilities(caps) },
        name: { data, _, name in listenerOwner(data, as: WaylandSeat.self)?.name = name.map { String(cString: $0) } ?? "seat" }))

    /// A touch event's position in window `index`'s buffer pixels.
    private func scaled(_ value: wl_fixed_t, window index: Int) -> Double {
        wl_fixed_to_double(value) * (windows.indices.contains(index) ? windows[index].scale : 1)
    }

    nonisolated(unsafe) private static let touchListener = listenerTable(wl_touch_listener(
        down: { data, _, _, ms, surface, id, x, y in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            let w = seat.window(of: surface)
            seat.focus.touches[id] = w
            seat.pendingTouch.append((w, seat.events.touchDown(id: id, x: seat.scaled(x, window: w), y: seat.scaled(y, window: w),
                                                              ms: ms, now: MonotonicClock.now())))
        },
        up: { data, _, _, ms, id in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            let w = seat.focus.touches.removeValue(forKey: id) ?? 0
            seat.pendingTouch.append((w, seat.events.touchUp(id: id, ms: ms, now: MonotonicClock.now())))
        },
        motion: { data, _, ms, id, x, y in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            let w = seat.focus.touches[id] ?? 0
            seat.pendingTouch.append((w, seat.events.touchMotion(id: id, x: seat.scaled(x, window: w), y: seat.scaled(y, window: w),
                                                                ms: ms, now: MonotonicClock.now())))
        },
        frame: { data, _ in listenerOwner(data, as: WaylandSeat.self)?.deliverTouches(framed: true) },
        cancel: { data, _ in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            seat.pendingTouch.removeAll()
            seat.focus.touches.removeAll()
            let cancelled = seat.events.touchCancel(now: MonotonicClock.now())
            for index in seat.windows.indices { seat.deliver(cancelled, window: index) }
        },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in }))

    // Filled field by field: libwayland 1.23 (Debian 13) adds axis_relative_direction (wl_pointer
    // v9), which the wl_seat version bound here (5) never sends, so it stays NULL.
    nonisolated(unsafe) private static let pointerListener: UnsafeMutablePointer<wl_pointer_listener> = {
        let listener = listenerTable(wl_pointer_listener())
        listener.pointee.enter = { data, _, _, surface, x, y in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            seat.focus.pointer = seat.window(of: surface)
            let w = seat.focus.pointer
            seat.pointerEvent(seat.events.pointerEnter(x: seat.scaled(x, window: w), y: seat.scaled(y, window: w),
                                                       now: MonotonicClock.now()))
        }
        listener.pointee.leave = { _, _, _, _ in }
        listener.pointee.motion = { data, _, ms, x, y in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            let w = seat.focus.pointer
            seat.pointerEvent(seat.events.pointerMotion(x: seat.scaled(x, window: w), y: seat.scaled(y, window: w),
                                                        ms: ms, now: MonotonicClock.now()))
        }
        listener.pointee.button = { data, _, _, ms, button, state in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            seat.pointerEvent(seat.events.pointerButton(button: button, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue,
                                                        ms: ms, now: MonotonicClock.now()))
        }
        listener.pointee.axis = { _, _, _, _, _ in }
        listener.pointee.frame = { data, _ in listenerOwner(data, as: WaylandSeat.self)?.pointerFrame() }
        listener.pointee.axis_source = { _, _, _ in }
        listener.pointee.axis_stop = { _, _, _, _ in }
        listener.pointee.axis_discrete = { _, _, _, _ in }
        listener.pointee.axis_value120 = { _, _, _, _ in }
        return listener
    }()

    nonisolated(unsafe) private static let keyboardListener = listenerTable(wl_keyboard_listener(
        keymap: { data, _, format, fd, size in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { close(fd); return }
            seat.keymap.load(fd: fd, size: size, format: format)
        },
        enter: { data, _, _, surface, _ in
            guard let seat = listenerOwner(data, as: WaylandSeat.self) else { return }
            seat.focus.keyboard = seat.window(of: surface)
        },
        leave: { _, _, _, _ in },
        key: { data, _, _, ms, key, state in
            guard let seat = listenerOwner(data, as: WaylandSeat.self), let code = seat.keymap.evdevCode(key) else { return }
            seat.deliver([seat.events.key(code: code, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue,
                                          ms: ms, now: MonotonicClock.now())], window: seat.focus.keyboard)
        },
        modifiers: { data, _, _, depressed, latched, locked, group in
            listenerOwner(data, as: WaylandSeat.self)?.keymap.setModifiers(depressed: depressed, latched: latched, locked: locked, group: group)
        },
        repeat_info: { _, _, _, _ in }))
}

/// The seat's devices, each bound while the compositor offers it.
private struct SeatDevices {
    var touch: OpaquePointer?
    var pointer: OpaquePointer?
    var keyboard: OpaquePointer?
}

/// A window that takes input: its surface, its own translator (the screen it maps onto) and
/// its buffer scale.
private struct SeatWindow {
    var surface: OpaquePointer?
    var translator: InputTranslator
    var scale = 1.0
}

/// Which window each touch went down on, and which has the pointer and the keyboard.
private struct SeatFocus {
    var touches: [Int32: Int] = [:]
    var pointer = 0
    var keyboard = 0
}
