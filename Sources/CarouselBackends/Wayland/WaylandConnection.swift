import CarouselCore
import CWayland
import Glibc

/// What the compositor says about one of its outputs, for `carouseld outputs`.
package final class WaylandOutputInfo {
    package let proxy: OpaquePointer
    package let globalName: UInt32
    /// xdg-output's name ("HDMI-A-1"), when the compositor offers xdg-output.
    package var name: String?
    package var make = "", model = ""
    package var modes: [(width: Int32, height: Int32, millihertz: Int32, current: Bool, preferred: Bool)] = []
    package var scale: Int32 = 1
    /// xdg-output's logical size (after scale and transform).
    package var logicalSize: (Int32, Int32)?

    /// The connection that bound it, told when the output's description is complete.
    fileprivate weak var connection: WaylandConnection?

    init(proxy: OpaquePointer, globalName: UInt32, connection: WaylandConnection) {
        self.proxy = proxy; self.globalName = globalName; self.connection = connection
    }

    /// "HDMI-A-1 (make model): 1920x1080@60.000 current preferred, scale 1, logical 1920x1080"
    package var lines: [String] {
        let title = (name ?? "wl_output \(globalName)") + (make.isEmpty && model.isEmpty ? "" : " (\(make) \(model))")
        var lines = ["\(title): scale \(scale)" + (logicalSize.map { ", logical \($0.0)x\($0.1)" } ?? "")]
        for mode in modes {
            lines.append("  \(mode.width)x\(mode.height)@" + formatted("%.3f", Double(mode.millihertz) / 1000)
                         + (mode.current ? " current" : "") + (mode.preferred ? " preferred" : ""))
        }
        return lines
    }
}

/// The connection to the compositor and the globals carouseld uses, bound at start-up (the
/// only round trips the daemon makes). Afterwards the event loop watches `fd`: `dispatch()`
/// reads and handles what arrived and sends what was queued.
package final class WaylandConnection {
    package let display: OpaquePointer
    /// Where the connection went (WAYLAND_DISPLAY or WAYLAND_SOCKET), for messages.
    package let socketName: String
    private var globals = Globals()
    package private(set) var outputs: [WaylandOutputInfo] = []
    /// The clock of wp_presentation's timestamps (CLOCK_MONOTONIC on every compositor seen).
    package fileprivate(set) var presentationClock: Int32?
    private var registry: OpaquePointer?
    /// After start-up, an output plugged in is described at once (`startupFinished`).
    private var followsOutputs = false
    /// An output came (once its name is known), changed, or went since `takeOutputsChanged`.
    private var outputsChanged = false

    package var compositor: OpaquePointer? { globals.compositor }
    package var shm: OpaquePointer? { globals.shm }
    package var wmBase: OpaquePointer? { globals.wmBase }
    package var seat: OpaquePointer? { globals.seat }
    package var presentation: OpaquePointer? { globals.presentation }
    package var idleInhibitManager: OpaquePointer? { globals.idleInhibitManager }
    package var outputManager: OpaquePointer? { globals.outputManager }

    /// Is a compositor named in the environment (`--backend auto` then picks Wayland)?
    package static var isOffered: Bool { getenv("WAYLAND_DISPLAY") != nil || getenv("WAYLAND_SOCKET") != nil }

    package init() throws(DisplayError) {
        socketName = getenv("WAYLAND_SOCKET") != nil ? "WAYLAND_SOCKET"
            : (getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0")
        guard let display = wl_display_connect(nil) else {
            throw .compositor("cannot connect to the Wayland compositor at \(socketName): \(Errno(rawValue: Glibc.errno))")
        }
        self.display = display
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, Self.registryListener, listenerData(self))
        guard wl_display_roundtrip(display) >= 0 else { throw failure() }
        let missing = [("wl_compositor", compositor), ("wl_shm", shm), ("xdg_wm_base", wmBase)]
            .filter { $0.1 == nil }.map(\.0)
        guard missing.isEmpty else {
            throw .compositor("the compositor at \(socketName) offers no \(missing.joined(separator: ", ")): "
                              + "carouseld needs a desktop-style compositor (cage, weston, labwc, sway)")
        }
        // Output details (modes, xdg-output names) arrive in a second round.
        for output in outputs { describe(output) }
        guard wl_display_roundtrip(display) >= 0 else { throw failure() }
    }

    deinit { wl_display_disconnect(display) }

    /// The mode an output is showing now (the first output's, when there are several).
    package var currentMode: (width: Int32, height: Int32, millihertz: Int32)? {
        outputs.lazy.flatMap(\.modes).first { $0.current }.map { ($0.width, $0.height, $0.millihertz) }
    }

    /// Start-up's round trips are over: outputs that come later are described at once.
    package func startupFinished() { followsOutputs = true }

    /// Whether an output came, changed or went since the last call (the windows follow them).
    package func takeOutputsChanged() -> Bool {
        defer { outputsChanged = false }
        return outputsChanged && followsOutputs
    }

    /// The connection's socket, for the event loop.
    package var fd: Int32 { wl_display_get_fd(display) }

    /// Reads the compositor's events and handles them, then sends what is queued. Throws when
    /// the compositor closed the connection or sent a protocol error.
    package func dispatch() throws(DisplayError) {
        if wl_display_prepare_read(display) == 0 {
            guard wl_display_read_events(display) >= 0 else { throw failure() }
        }
        guard wl_display_dispatch_pending(display) >= 0 else { throw failure() }
        try flush()
    }

    /// Sends queued requests. A full socket (EAGAIN) is retried at the next dispatch.
    package func flush() throws(DisplayError) {
        if wl_display_flush(display) < 0 && Glibc.errno != EAGAIN { throw failure() }
    }

    /// Blocks until the compositor has handled everything sent so far: start-up only.
    package func roundtrip() throws(DisplayError) {
        guard wl_display_roundtrip(display) >= 0 else { throw failure() }
    }

    /// Why the connection broke, in words: a protocol error names the interface and object.
    package func failure() -> DisplayError {
        let code = wl_display_get_error(display)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let error = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.flatMap { $0.pointee.name.map { String(cString: $0) } } ?? "unknown interface"
            return .compositor("protocol error \(error) on \(name)@\(id) from the compositor at \(socketName)")
        }
        return .compositor("the compositor at \(socketName) closed the connection"
                           + (code != 0 ? " (\(Errno(rawValue: code)))" : ""))
    }

    // MARK: - Globals

    /// Binds the globals carouseld uses, at the highest version it speaks and the compositor offers.
    private func bind(_ name: UInt32, _ interfaceName: String, version offered: UInt32) {
        let spoken: [String: UInt32] = ["wl_compositor": 4, "wl_shm": 1, "xdg_wm_base": 2, "wl_seat": 5,
                                        "wp_presentation": 1, "zwp_idle_inhibit_manager_v1": 1,
                                        "zxdg_output_manager_v1": 3, "wl_output": 4]
        guard let version = spoken[interfaceName], let interface = carouseld_wl_interface(interfaceName),
              let bound = wl_registry_bind(registry, name, interface, min(version, offered)) else { return }
        let proxy = OpaquePointer(bound)
        switch interfaceName {
        case "wl_compositor": globals.compositor = proxy
        case "wl_shm": globals.shm = proxy
        case "xdg_wm_base":
            globals.wmBase = proxy
            xdg_wm_base_add_listener(proxy, Self.wmBaseListener, nil)
        case "wl_seat":
            if globals.seat == nil { globals.seat = proxy } else { wl_proxy_destroy(proxy) }  // the first seat is the one
        case "wp_presentation":
            globals.presentation = proxy
            wp_presentation_add_listener(proxy, Self.presentationListener, listenerData(self))
        case "zwp_idle_inhibit_manager_v1": globals.idleInhibitManager = proxy
        case "zxdg_output_manager_v1": globals.outputManager = proxy
        case "wl_output":
            let info = WaylandOutputInfo(proxy: proxy, globalName: name, connection: self)
            outputs.append(info)
            wl_output_add_listener(proxy, Self.outputListener, listenerData(info))
            // At start-up the names are asked for in a second round (xdg-output's manager may
            // come later in the registry); an output plugged in later is asked at once.
            if followsOutputs { describe(info) }
        default: wl_proxy_destroy(proxy)
        }
    }

    /// Asks xdg-output for the output's name and logical size (wl_output 4 also names it).
    private func describe(_ output: WaylandOutputInfo) {
        guard let outputManager, let xdg = zxdg_output_manager_v1_get_xdg_output(outputManager, output.proxy) else { return }
        zxdg_output_v1_add_listener(xdg, Self.xdgOutputListener, listenerData(output))
    }

    private func outputRemoved(globalName: UInt32) {
        guard let gone = outputs.first(where: { $0.globalName == globalName }) else { return }
        outputs.removeAll { $0 === gone }
        Log.info("wayland: output \(gone.name ?? "wl_output \(globalName)") went away")
        outputsChanged = true
        wl_output_destroy(gone.proxy)
    }

    nonisolated(unsafe) private static let registryListener = listenerTable(wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let connection = listenerOwner(data, as: WaylandConnection.self), let interface else { return }
            connection.bind(name, String(cString: interface), version: version)
        },
        global_remove: { data, _, name in
            listenerOwner(data, as: WaylandConnection.self)?.outputRemoved(globalName: name)
        }))

    /// Answers the compositor's pings, or it would call carouseld unresponsive.
    nonisolated(unsafe) private static let wmBaseListener = listenerTable(xdg_wm_base_listener(
        ping: { _, base, serial in xdg_wm_base_pong(base, serial) }))

    nonisolated(unsafe) private static let presentationListener = listenerTable(wp_presentation_listener(
        clock_id: { data, _, clock in listenerOwner(data, as: WaylandConnection.self)?.presentationClock = Int32(bitPattern: clock) }))

    nonisolated(unsafe) private static let outputListener = listenerTable(wl_output_listener(
        geometry: { data, _, _, _, _, _, _, make, model, _ in
            guard let info = listenerOwner(data, as: WaylandOutputInfo.self) else { return }
            info.make = make.map { String(cString: $0) } ?? ""
            info.model = model.map { String(cString: $0) } ?? ""
        },
        mode: { data, _, flags, width, height, refresh in
            guard let info = listenerOwner(data, as: WaylandOutputInfo.self) else { return }
            info.modes.append((width, height, refresh, flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0,
                               flags & WL_OUTPUT_MODE_PREFERRED.rawValue != 0))
        },
        done: { data, _ in
            guard let info = listenerOwner(data, as: WaylandOutputInfo.self) else { return }
            info.connection?.outputsChanged = true
        },
        scale: { data, _, factor in listenerOwner(data, as: WaylandOutputInfo.self)?.scale = factor },
        name: { data, _, name in
            guard let info = listenerOwner(data, as: WaylandOutputInfo.self), info.name == nil else { return }
            info.name = name.map { String(cString: $0) }
        },
        description: { _, _, _ in }))

    nonisolated(unsafe) private static let xdgOutputListener = listenerTable(zxdg_output_v1_listener(
        logical_position: { _, _, _, _ in },
        logical_size: { data, _, width, height in listenerOwner(data, as: WaylandOutputInfo.self)?.logicalSize = (width, height) },
        done: { _, _ in },
        name: { data, _, name in listenerOwner(data, as: WaylandOutputInfo.self)?.name = name.map { String(cString: $0) } },
        description: { _, _, _ in }))
}

/// The globals carouseld binds (the first seat only).
private struct Globals {
    var compositor: OpaquePointer?
    var shm: OpaquePointer?
    var wmBase: OpaquePointer?
    var seat: OpaquePointer?
    var presentation: OpaquePointer?
    var idleInhibitManager: OpaquePointer?
    var outputManager: OpaquePointer?
}

/// A listener struct at a fixed address for the rest of the run: libwayland keeps the pointer
/// it is given, so the listener tables live in static storage.
package func listenerTable<Listener>(_ listener: Listener) -> UnsafeMutablePointer<Listener> {
    let table = UnsafeMutablePointer<Listener>.allocate(capacity: 1)
    table.initialize(to: listener)
    return table
}

/// The Swift object a listener's `data` pointer was registered with.
package func listenerOwner<Owner: AnyObject>(_ data: UnsafeMutableRawPointer?, as type: Owner.Type) -> Owner? {
    data.map { Unmanaged<Owner>.fromOpaque($0).takeUnretainedValue() }
}

/// `data` for a listener: the object, not retained (it outlives its proxies).
package func listenerData(_ owner: AnyObject) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(owner).toOpaque()
}
