import CarouselConfig
import CarouselCore
import CarouselEngine
import CInput
import CLibinputLog
import Glibc

/// Why live input could not start.
package struct InputError: Error, CustomStringConvertible {
    package var description: String
}

/// Live input: libinput's path backend, given the configured seat's devices (`SeatNodes`) at
/// start and as the process's one udev monitor sees them come and go (`devicesChanged`).
///
/// The daemon adds `fd` to its event loop and calls `dispatch()` whenever it is readable,
/// then applies each returned action with `engine.apply(_:)`. Devices may come and go at any
/// time; a seat without a touch device is normal (the carousel runs as a slideshow).
package final class InputSource {
    /// libinput's epoll fd: readable when `dispatch()` has work.
    package let fd: Int32
    private let libinput: CHandle<OpaquePointer>
    /// One per screen with a touch panel mapping (`TouchTarget`); keyboards and pointers use
    /// the first.
    private var targets: [TouchTarget]
    private var translators: [InputTranslator]
    private var routing: TouchRouting
    /// The screen (index into `targets`) each device was given when it was added.
    private var screenOfDevice: [Int: Int] = [:]
    private let seat: String
    /// The devices given to libinput, by node, each with a reference of ours.
    private var devices: [String: OpaquePointer] = [:]

    /// One screen: `screen` is the logical screen (the engine's viewport); `settings.rotation`
    /// maps the panel onto it.
    package convenience init(settings: ShellSettings, screen: Size) throws {
        try self.init(settings: settings, targets: [TouchTarget(carousel: 0, screen: screen, rotation: settings.rotation)],
                      routing: TouchRouting(screens: [(connector: "", touch: nil)]))
    }

    /// Several screens: `targets` and `routing.screens` in the same order.
    package init(settings: ShellSettings, targets: [TouchTarget], routing: TouchRouting) throws {
        guard let libinput = Self.makeContext() else {
            throw InputError(description: "input: libinput_path_create_context failed")
        }
        carouseld_libinput_log_to(libinput.pointer, libinputLogSink)
        fd = libinput_get_fd(libinput.pointer)
        self.libinput = libinput
        self.targets = targets
        self.routing = routing
        seat = settings.input.seat
        translators = targets.map { InputTranslator(settings: Self.settings(settings, for: $0), screen: $0.screen) }
        for node in SeatNodes.nodes(seat: seat) { add(node) }
        // Each device added queued its DEVICE_ADDED.
        _ = dispatch()
        // "No touch device" is said of the seat, once: by the one translator, or here.
        if translators.count == 1 {
            translators[0].startupFinished()
        } else {
            for i in translators.indices { translators[i].startupFinished(quiet: true) }
            if settings.input.touch && screenOfDevice.isEmpty { Log.notice("no touch device; running as a slideshow") }
        }
    }

    deinit {
        // Ours go before the context's last reference (the CHandle, after this body).
        for device in devices.values { libinput_device_unref(device) }
    }

    /// An input device of the seat came or went (the process's udev monitor): libinput is
    /// given it or loses it; `dispatch()` then has its DEVICE_ADDED or DEVICE_REMOVED.
    package func devicesChanged(_ events: [UdevMonitor.Event]) {
        for event in events where SeatNodes.concerns(event, seat: seat) {
            guard let node = event.devnode else { continue }
            if event.action == "add" { add(node) } else if event.action == "remove" { remove(node) }
        }
    }

    /// Gives libinput a device once: the start's list and the monitor's events may both name it.
    private func add(_ node: String) {
        guard devices[node] == nil, let device = libinput_path_add_device(libinput.pointer, node) else { return }
        devices[node] = libinput_device_ref(device)
    }

    private func remove(_ node: String) {
        guard let device = devices.removeValue(forKey: node) else { return }
        libinput_path_remove_device(device)
        libinput_device_unref(device)
    }

    /// A libinput context whose device opener and interface live exactly as long as it does:
    /// libinput calls back into them until (and while) it is unreferenced.
    private static func makeContext() -> CHandle<OpaquePointer>? {
        let interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        interface.initialize(to: DeviceOpener.interface)
        let opener = Unmanaged.passRetained(DeviceOpener())
        guard let context = libinput_path_create_context(interface, opener.toOpaque()) else {
            opener.release(); interface.deallocate()
            return nil
        }
        return CHandle(context) { context in
            libinput_unref(context)
            opener.release()
            interface.deallocate()
        }
    }

    private static func settings(_ settings: ShellSettings, for target: TouchTarget) -> ShellSettings {
        var turned = settings
        turned.rotation = target.rotation
        return turned
    }

    /// After a config reload or a change of the screens: rotation, screen sizes and the
    /// touch/keyboard/pointer switches take effect at once (a changed `seat` needs a new
    /// `InputSource`). Devices keep the screen they were given while the number
    /// of screens stays; otherwise they go to the first.
    package func reconfigure(settings: ShellSettings, targets: [TouchTarget], routing: TouchRouting) {
        if targets.count != translators.count {
            // A device's touches in flight cannot move between translators: it starts afresh.
            translators = targets.map { InputTranslator(settings: Self.settings(settings, for: $0), screen: $0.screen) }
            screenOfDevice = screenOfDevice.mapValues { min($0, targets.count - 1) }
        } else {
            for (i, target) in targets.enumerated() {
                translators[i].reconfigure(settings: Self.settings(settings, for: target), screen: target.screen)
            }
        }
        self.targets = targets
        self.routing = routing
    }

    /// Reads everything libinput has and returns what each carousel (`TouchTarget.carousel`)
    /// must do, in order.
    package func dispatch() -> [RoutedAction] {
        let rc = libinput_dispatch(libinput.pointer)
        if rc < 0 { Log.warning("input: libinput_dispatch: \(describe(errno: -rc))") }
        var batches = [[DeviceEvent]](repeating: [], count: translators.count)
        while let event = CHandle(libinput_get_event(libinput.pointer), release: libinput_event_destroy) {
            let device = libinput_event_get_device(event.pointer)
            let id = Int(bitPattern: device)
            if libinput_event_get_type(event.pointer) == LIBINPUT_EVENT_DEVICE_ADDED,
               libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0 {
                screenOfDevice[id] = route(device)
            }
            let screen = min(screenOfDevice[id] ?? 0, translators.count - 1)
            if let deviceEvent = LibinputEvents.read(event.pointer, panel: translators[screen].mapping.panel) {
                batches[screen].append(deviceEvent)
            }
            if libinput_event_get_type(event.pointer) == LIBINPUT_EVENT_DEVICE_REMOVED { screenOfDevice[id] = nil }
        }
        var routed: [RoutedAction] = []
        for (screen, batch) in batches.enumerated() where !batch.isEmpty {
            routed += route(translators[screen].translate(batch), fromScreen: screen)
        }
        return routed
    }

    /// When a contact down on any screen will have sent nothing for `touch_timeout`.
    package var nextStuckDeadline: Double? { translators.compactMap(\.nextStuckDeadline).min() }

    /// Lifts the contacts that sent nothing for `touch_timeout` by `now` (`InputTranslator`).
    package func expireStuckTouches(now: Double) -> [RoutedAction] {
        translators.indices.flatMap { route(translators[$0].expireStuckTouches(now: now), fromScreen: $0) }
    }

    /// A screen's actions, for its carousel (`TouchTarget.route`).
    private func route(_ actions: [InputAction], fromScreen screen: Int) -> [RoutedAction] {
        actions.map(targets[screen].route)
    }

    /// The screen a new device is given, from its name, `ID_PATH` and `WL_OUTPUT`.
    private func route(_ device: OpaquePointer?) -> Int {
        guard routing.screens.count > 1, let device else { return 0 }
        let udevDevice = libinput_device_get_udev_device(device)
        defer { if let udevDevice { udev_device_unref(udevDevice) } }
        func property(_ name: String) -> String? {
            udevDevice.flatMap { udev_device_get_property_value($0, name) }.map { String(cString: $0) }
        }
        let name = libinput_device_get_name(device).map { String(cString: $0) } ?? ""
        let (screen, reason) = routing.screen(for: TouchRouting.Device(name: name, idPath: property("ID_PATH"),
                                                                        wlOutput: property("WL_OUTPUT")))
        let connector = routing.screens[screen].connector
        switch reason {
        case .config: Log.info("input: touch \"\(name)\" is on \(connector) (touch in its [[output]])")
        case .wlOutput: Log.info("input: touch \"\(name)\" is on \(connector) (udev WL_OUTPUT)")
        case .firstScreen:
            Log.notice("input: touch \"\(name)\" is mapped to no screen; it drives the first, \(connector) "
                       + "(name it with touch = \"\(name)\" in an [[output]] table, or set udev's WL_OUTPUT)")
        }
        return min(screen, translators.count - 1)
    }
}

/// Routes libinput's own messages into carouseld's log (one line each, journald priorities),
/// formatted by the C shim (CLibinputLog).
private let libinputLogSink: carouseld_libinput_log_sink = { priority, text in
    guard let text else { return }
    var message = String(cString: text)
    while message.last?.isNewline == true { message.removeLast() }
    switch libinput_log_priority(rawValue: UInt32(priority)) {
    case LIBINPUT_LOG_PRIORITY_ERROR: Log.error("libinput: \(message)")
    case LIBINPUT_LOG_PRIORITY_INFO: Log.info("libinput: \(message)")
    default: Log.debug("libinput: \(message)")
    }
}
