import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels
import CWayland
import Glibc

/// The carousel as a fullscreen toplevel of a Wayland compositor (cage, weston, labwc), under
/// the same `DisplayOutput` contract as DRM: `present` draws into a free wl_shm buffer and
/// commits it; `onPresented` comes from the surface's frame callback, timed by wp_presentation
/// when the compositor offers it. While settled nothing is committed and no callback is asked.
///
/// - Nothing is drawn before the first configure is acked; every configured size is honoured
///   (0x0, "choose yourself", takes the output's current mode).
/// - Buffers: two, and a third only while both are held by the compositor. Each commit damages
///   only the rectangle that differs from the frame before (`FrameDamage`).
/// - Input comes from the seat (`WaylandSeat`), on the same connection.
package final class WaylandOutput: DisplayOutput {
    package let connection: WaylandConnection
    package let seat: WaylandSeat?
    private var surface: OpaquePointer?
    private var xdgSurface: OpaquePointer?
    private var toplevel: OpaquePointer?
    private var inhibitor: OpaquePointer?
    /// The size of the last toplevel configure, applied when its xdg_surface configure is acked.
    private var configuredSize: (width: Int32, height: Int32)?
    package private(set) var size: Size?
    private var buffers: [ShmBuffer] = []
    /// Buffers of an old size the compositor still holds: freed once it lets go.
    private var retired: [ShmBuffer] = []
    private var lastCommitted: ShmBuffer?
    private var frameCallback: OpaquePointer?
    /// wp_presentation's time for the latest presented commit, used by the next frame callback.
    private var presentedAt: Double?
    private var clock = WaylandClock()
    private weak var loop: EventLoop?
    private var connectionWatch: Watch?
    /// Requests made, for the "settled means silent" figures.
    package private(set) var commits = 0
    package private(set) var frameCallbacksRequested = 0
    /// Frames that came out the same as the one on screen, and were not committed.
    package private(set) var unchangedFrames = 0
    package static let maxBuffers = 3

    package var onPresented: ((Double) -> Void)?
    package var onScreenChanged: (() -> Void)?
    /// The compositor went away or broke the protocol: the daemon ends (systemd restarts it).
    package var onFailure: ((DisplayError) -> Void)?
    /// The compositor asked the window to close.
    package var onClose: (() -> Void)?

    package init(connection: WaylandConnection, settings: ShellSettings, screenForInput: Size = Size(width: 1280, height: 720))
        throws(DisplayError) {
        self.connection = connection
        guard let compositor = connection.compositor, let wmBase = connection.wmBase,
              let surface = wl_compositor_create_surface(compositor),
              let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface),
              let toplevel = xdg_surface_get_toplevel(xdgSurface) else {
            throw .compositor("cannot create a surface on the compositor at \(connection.socketName)")
        }
        self.surface = surface; self.xdgSurface = xdgSurface; self.toplevel = toplevel
        seat = connection.seat.map { WaylandSeat(proxy: $0, settings: settings, screen: screenForInput) }
        xdg_surface_add_listener(xdgSurface, Self.xdgSurfaceListener, listenerData(self))
        xdg_toplevel_add_listener(toplevel, Self.toplevelListener, listenerData(self))
        xdg_toplevel_set_app_id(toplevel, "carouseld")
        xdg_toplevel_set_title(toplevel, "carouseld")
        xdg_toplevel_set_fullscreen(toplevel, nil)
        if let manager = connection.idleInhibitManager {
            inhibitor = zwp_idle_inhibit_manager_v1_create_inhibitor(manager, surface)
        } else {
            Log.notice("wayland: the compositor offers no zwp_idle_inhibit_manager_v1; "
                       + "its own idle settings decide whether the screen blanks")
        }
        // The first commit, with no buffer, asks for the first configure.
        wl_surface_commit(surface)
        try connection.roundtrip()
    }

    package var summary: String {
        "wayland \(connection.socketName) " + (size.map { "\(Int($0.width))x\(Int($0.height))" } ?? "(not configured yet)")
            + (connection.presentation == nil ? "" : ", presentation-time")
    }
    package var canPresent: Bool {
        size != nil && surface != nil && frameCallback == nil
            && (buffers.contains { !$0.held } || buffers.count < Self.maxBuffers)
    }
    package var refreshInterval: Double {
        guard let mhz = connection.currentMode?.millihertz, mhz > 0 else { return 1.0 / 60 }
        return 1000 / Double(mhz)
    }
    package var devicePath: String { connection.socketName }
    package var isFirmwareFramebuffer: Bool { false }
    package var statistics: String? {
        "wayland commits \(commits), frame callbacks \(frameCallbacksRequested), unchanged frames not committed \(unchangedFrames)"
    }

    package func attach(to loop: EventLoop) throws {
        self.loop = loop
        connectionWatch = try loop.watch(connection.fd, name: "Wayland") { [unowned self] in
            do throws(DisplayError) {
                try connection.dispatch()
                seat?.flushUnframed()
                retired.removeAll { !$0.held }
            } catch {
                connectionWatch = nil
                onFailure?(error)
            }
        }
        // Configures that arrived during start-up's round trip.
        if size != nil { loop.post { [weak self] in self?.onScreenChanged?() } }
    }

    package func detach() {
        connectionWatch = nil
        onPresented = nil; onScreenChanged = nil
    }

    package func present(_ draw: (PixelBuffer) -> Void) throws(DisplayError) {
        guard let surface, let size, frameCallback == nil else {
            throw .unsupported("present called while \(size == nil ? "not configured" : "a frame is pending")")
        }
        let buffer = try freeBuffer(width: Int(size.width), height: Int(size.height))
        draw(buffer.pixels)
        var damage = FrameDamage.Rect(x: 0, y: 0, width: buffer.width, height: buffer.height)
        if let previous = lastCommitted, previous !== buffer, previous.width == buffer.width, previous.height == buffer.height {
            guard let changed = FrameDamage.changed(previous.pixels, buffer.pixels) else {
                // The same picture as on screen: nothing to commit. A commit without damage
                // would get no frame callback from wlroots (it repaints nothing), and the next
                // frame would wait forever; the frame is "presented" now instead.
                unchangedFrames += 1
                loop?.post { [weak self] in self?.onPresented?(MonotonicClock.now()) }
                return
            }
            damage = changed
        }
        wl_surface_attach(surface, buffer.proxy, 0, 0)
        wl_surface_damage_buffer(surface, Int32(damage.x), Int32(damage.y), Int32(damage.width), Int32(damage.height))
        frameCallback = wl_surface_frame(surface)
        frameCallbacksRequested += 1
        if let frameCallback { wl_callback_add_listener(frameCallback, Self.frameListener, listenerData(self)) }
        if let presentation = connection.presentation, let feedback = wp_presentation_feedback(presentation, surface) {
            wp_presentation_feedback_add_listener(feedback, Self.feedbackListener, listenerData(self))
        }
        wl_surface_commit(surface)
        commits += 1
        buffer.held = true
        lastCommitted = buffer
        try connection.flush()
    }

    /// Takes the surface off the screen: the compositor shows what is under it.
    package func restore() {
        if let inhibitor { zwp_idle_inhibitor_v1_destroy(inhibitor) }
        if let frameCallback { wl_callback_destroy(frameCallback) }
        if let toplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface { xdg_surface_destroy(xdgSurface) }
        if let surface { wl_surface_destroy(surface) }
        inhibitor = nil; frameCallback = nil; toplevel = nil; xdgSurface = nil; surface = nil
        try? connection.flush()
    }

    /// A buffer the compositor does not hold, at the current size: a free one, else a new one.
    private func freeBuffer(width: Int, height: Int) throws(DisplayError) -> ShmBuffer {
        if let free = buffers.first(where: { !$0.held }) { return free }
        guard let shm = connection.shm else { throw .compositor("no wl_shm") }
        let buffer = try ShmBuffer(shm: shm, width: width, height: height)
        buffers.append(buffer)
        if buffers.count == Self.maxBuffers { Log.debug("wayland: both buffers held by the compositor; a third one") }
        return buffer
    }

    // MARK: - Events

    private func configure(serial: UInt32) {
        guard let xdgSurface else { return }
        xdg_surface_ack_configure(xdgSurface, serial)
        let requested = configuredSize ?? (0, 0)
        // 0 means "your choice": the output's current mode, as a fullscreen client would pick.
        let fallback = connection.currentMode
        let width = Int(requested.width > 0 ? requested.width : fallback?.width ?? 1280)
        let height = Int(requested.height > 0 ? requested.height : fallback?.height ?? 720)
        let newSize = Size(width: Double(width), height: Double(height))
        guard newSize != size else { return }
        if let size { Log.info("wayland: resized from \(Int(size.width))x\(Int(size.height)) to \(width)x\(height)") }
        size = newSize
        retired += buffers.filter(\.held)
        buffers.removeAll()
        lastCommitted = nil
        if loop != nil { onScreenChanged?() }
    }

    private func frameDone(ms: UInt32) {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        let now = MonotonicClock.now()
        let time = presentedAt.map { min($0, now) } ?? clock.seconds(ms: ms, now: now)
        presentedAt = nil
        onPresented?(time)
    }

    private func presented(seconds: UInt64, nanoseconds: UInt32) {
        // Only CLOCK_MONOTONIC times are the daemon's clock; others are left to the callback.
        guard connection.presentationClock == CLOCK_MONOTONIC else { return }
        presentedAt = Double(seconds) + Double(nanoseconds) / 1e9
    }

    nonisolated(unsafe) private static let xdgSurfaceListener = listenerTable(xdg_surface_listener(
        configure: { data, _, serial in listenerOwner(data, as: WaylandOutput.self)?.configure(serial: serial) }))

    nonisolated(unsafe) private static let toplevelListener = listenerTable(xdg_toplevel_listener(
        configure: { data, _, width, height, _ in listenerOwner(data, as: WaylandOutput.self)?.configuredSize = (width, height) },
        close: { data, _ in listenerOwner(data, as: WaylandOutput.self)?.onClose?() },
        configure_bounds: { _, _, _, _ in },
        wm_capabilities: { _, _, _ in }))

    nonisolated(unsafe) private static let frameListener = listenerTable(wl_callback_listener(
        done: { data, _, ms in listenerOwner(data, as: WaylandOutput.self)?.frameDone(ms: ms) }))

    nonisolated(unsafe) private static let feedbackListener = listenerTable(wp_presentation_feedback_listener(
        sync_output: { _, _, _ in },
        presented: { data, feedback, secondsHigh, secondsLow, nanoseconds, _, _, _, _ in
            listenerOwner(data, as: WaylandOutput.self)?
                .presented(seconds: UInt64(secondsHigh) << 32 | UInt64(secondsLow), nanoseconds: nanoseconds)
            wp_presentation_feedback_destroy(feedback)
        },
        discarded: { _, feedback in wp_presentation_feedback_destroy(feedback) }))
}
