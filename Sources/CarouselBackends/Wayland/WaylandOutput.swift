import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels
import CWayland
import Glibc

/// The carousel as a fullscreen toplevel of a Wayland compositor (cage, weston, labwc), under
/// the same `DisplayOutput` contract as DRM: `acquire` gives a free wl_shm buffer and `commit`
/// attaches and commits it; `presented` comes from the surface's frame callback, timed by
/// wp_presentation when the compositor offers it. While settled nothing is committed and no callback is asked.
///
/// - Nothing is drawn before the first configure is acked; every configured size is honoured
///   (0x0, "choose yourself", takes the output's current mode).
/// - Drawn at physical pixels: at output scale N the buffer is N times the configured (logical)
///   size with `wl_surface.set_buffer_scale(N)`, so a 4K panel at scale 2 gets a 3840x2160
///   picture, not an upscaled 1920x1080 one. N is the largest scale of the outputs the surface
///   is on (before the compositor says, of all its outputs); `size` is in physical pixels.
/// - Buffers: two, and a third only while both are held by the compositor. Each commit damages
///   only the rectangle that differs from the frame before (`FrameDamage`).
/// - The panned strip (`WaylandPanning`): a window drawn at rest into a wide pool, each frame
///   of a page change a buffer that views it from another column.
/// - One window per screen: fullscreen on the named `wl_output`, or on the compositor's choice.
///   Input comes from the seat (`WaylandSeat`, the backend's), on the same connection.
package final class WaylandOutput: DisplayOutput {
    package var ladder = FrameLadder()
    package let connection: WaylandConnection
    private var window = WindowObjects()
    private var configured = ConfigureState()
    package private(set) var size: Size?
    private var pool = ShmBufferPool()
    private var panning = WaylandPanning()
    private var feedback = FrameFeedback()
    private var counters = WaylandCounters()

    /// The buffer `acquire` gave, for the next `commit`.
    private var acquired: ShmBuffer?
    /// Hears `presented`, `changed` and `ended`, from `attach` to `detach`. The window ends when
    /// the compositor closes it, goes away or breaks the protocol (the daemon ends; systemd
    /// restarts it).
    private var events: OutputEventSink?

    /// `output`: the wl_output to be fullscreen on; nil lets the compositor choose. The backend
    /// reads the connection for every window.
    /// `named` without `output`: the compositor has no such output yet; the screen waits for it.
    package init(connection: WaylandConnection, output: WaylandOutputInfo? = nil, named: String? = nil) throws(DisplayError) {
        self.connection = connection
        window.outputName = named ?? output?.name
        if let named, output == nil {
            Log.notice("wayland: the compositor has no output \(named) yet (it has "
                       + "\(connection.outputs.compactMap(\.name).joined(separator: ", "))); its screen waits for it")
            return
        }
        try open(on: output)
        try connection.roundtrip()
    }

    /// Creates the surface and its fullscreen toplevel, and asks for the first configure.
    private func open(on output: WaylandOutputInfo?) throws(DisplayError) {
        guard let compositor = connection.compositor, let wmBase = connection.wmBase,
              let surface = wl_compositor_create_surface(compositor),
              let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface),
              let toplevel = xdg_surface_get_toplevel(xdgSurface) else {
            throw .compositor("cannot create a surface on the compositor at \(connection.socketName)")
        }
        window = WindowObjects(surface: surface, xdgSurface: xdgSurface, toplevel: toplevel,
                               outputName: output?.name ?? window.outputName, output: output?.proxy)
        configured = ConfigureState()
        configured.scale = output?.scale ?? connection.outputs.map(\.scale).max() ?? 1
        wl_surface_add_listener(surface, Self.surfaceListener, listenerData(self))
        xdg_surface_add_listener(xdgSurface, Self.xdgSurfaceListener, listenerData(self))
        xdg_toplevel_add_listener(toplevel, Self.toplevelListener, listenerData(self))
        xdg_toplevel_set_app_id(toplevel, "carouseld")
        xdg_toplevel_set_title(toplevel, "carouseld")
        xdg_toplevel_set_fullscreen(toplevel, output?.proxy)
        if let manager = connection.idleInhibitManager {
            window.inhibitor = zwp_idle_inhibit_manager_v1_create_inhibitor(manager, surface)
        } else if output == nil || counters.commits == 0 {
            Log.notice("wayland: the compositor offers no zwp_idle_inhibit_manager_v1; "
                       + "its own idle settings decide whether the screen blanks")
        }
        // The first commit, with no buffer, asks for the first configure.
        wl_surface_commit(surface)
    }

    /// The named output this window is fullscreen on, as the compositor has it now: gone, the
    /// window goes too and the screen is dark (as an unplugged KMS screen, waited for); back,
    /// a new window goes fullscreen on it. True when the window changed (a new surface).
    package func follow(_ output: WaylandOutputInfo?) -> Bool {
        guard let name = window.outputName else { return false }
        var changed = false
        if window.surface != nil, let current = window.output, output?.proxy != current {
            Log.notice("wayland: \(name) went away; its screen waits for it")
            close()
            changed = true
        }
        if window.surface == nil, let output {
            do throws(DisplayError) {
                try open(on: output)
                try connection.flush()
                Log.notice("wayland: \(name) is there: fullscreen on it")
            } catch {
                events?.emit(.ended(.failed(error)))
            }
            changed = true
        }
        if changed { events?.emit(.changed) }
        return changed
    }

    /// Destroys the window and drops its buffers; `size` is nil until a new window is configured.
    private func close() {
        if let callback = feedback.callback { wl_callback_destroy(callback) }
        feedback.callback = nil
        panning.removeAll()
        window.destroy()
        pool = ShmBufferPool()
        size = nil
        try? connection.flush()
    }

    package var summary: String {
        "wayland \(connection.socketName) " + (window.outputName.map { "\($0) " } ?? "") + (size.map { "\(Int($0.width))x\(Int($0.height))" } ?? "(not configured yet)")
            + (configured.scale == 1 ? "" : " at scale \(configured.scale)")
            + (connection.presentation == nil ? "" : ", presentation-time")
    }
    package var lastFrame: PixelBuffer? {
        guard window.surface != nil else { return nil }
        return panning.shown?.view.pixels ?? pool.lastCommitted?.pixels
    }
    package var isReady: Bool {
        size != nil && window.surface != nil && feedback.callback == nil && pool.hasRoom
    }
    package var refreshInterval: Double {
        guard let mhz = connection.currentMode?.millihertz, mhz > 0 else { return 1.0 / 60 }
        return 1000 / Double(mhz)
    }
    package var devicePath: String { connection.socketName }
    /// The surface, for the seat to tell which window a touch is on.
    package var surface: OpaquePointer? { window.surface }
    /// Buffer pixels per surface unit.
    package var bufferScale: Double { Double(configured.scale) }
    package var isFirmwareFramebuffer: Bool { false }
    package var statistics: String? {
        "wayland commits \(counters.commits), frame callbacks \(counters.frameCallbacks), "
            + "unchanged frames not committed \(counters.unchangedFrames), panned frames \(panning.frames)"
    }

    package func attach(to loop: EventLoop, events: @escaping (OutputEvent) -> Void) throws {
        self.events = OutputEventSink(loop: loop, handler: events)
        // Configures that arrived during start-up's round trip.
        if size != nil { self.events?.emit(.changed) }
    }

    package func detach() { events = nil }

    /// The connection broke (the compositor went away or sent a protocol error): the window ends.
    package func connectionFailed(_ error: DisplayError) { events?.emit(.ended(.failed(error))) }

    package func acquire() throws(DisplayError) -> PixelBuffer {
        guard window.surface != nil, let size, feedback.callback == nil else {
            throw notReady("a buffer asked for")
        }
        pool.freeReleased()
        let buffer = try pool.free(shm: connection.shm, width: Int(size.width), height: Int(size.height))
        acquired = buffer
        return buffer.pixels
    }

    /// A wide buffer for a window of the panned strip; nil when all three are in use.
    package func acquireWide(width: Int, height: Int) throws(DisplayError) -> PixelBuffer? {
        guard window.surface != nil, let size, feedback.callback == nil else {
            throw notReady("a wide buffer asked for")
        }
        return try panning.free(shm: connection.shm, width: width, height: height, viewWidth: Int(size.width))?.memory.pixels
    }

    /// Cards are always composed, and the compositor owns the screen's power: only a drawn
    /// primary, or a column of a wide buffer, is committed.
    package func commit(_ state: FrameState, _ mode: CommitMode) throws(DisplayError) -> CommitResult {
        if !state.cards.isEmpty { return .compose(.noOverlayPlanes) }
        if let pan = state.pan { return try commitPanned(pan, mode) }
        guard mode == .apply, state.power == .on, state.primary != nil else { return .accepted }
        guard let surface = window.surface, let buffer = acquired, feedback.callback == nil else {
            throw notReady("a commit")
        }
        acquired = nil
        try attachAndCommit(buffer, to: surface)
        return .accepted
    }

    private func attachAndCommit(_ buffer: ShmBuffer, to surface: OpaquePointer) throws(DisplayError) {
        var damage = FrameDamage.Rect(x: 0, y: 0, width: buffer.width, height: buffer.height)
        if let previous = pool.lastCommitted, previous !== buffer, previous.width == buffer.width, previous.height == buffer.height {
            guard let changed = FrameDamage.changed(previous.pixels, buffer.pixels) else {
                // The same picture as on screen: nothing to commit. A commit without damage
                // would get no frame callback from wlroots (it repaints nothing), and the next
                // frame would wait forever; the frame is "presented" now instead.
                counters.unchangedFrames += 1
                events?.emit(.presented(at: MonotonicClock.now()))
                return
            }
            damage = changed
        }
        describeAfterConfigure(surface, buffer)
        panning.composed()
        wl_surface_attach(surface, buffer.proxy, 0, 0)
        wl_surface_damage_buffer(surface, Int32(damage.x), Int32(damage.y), Int32(damage.width), Int32(damage.height))
        if counters.commits == 0 { Log.info("wayland: first frame committed, \(buffer.width)x\(buffer.height)") }
        buffer.held = true
        pool.lastCommitted = buffer
        try commitWithFeedback(surface)
    }

    /// Shows a window `acquireWide` gave from a column (`WaylandPanning`).
    private func commitPanned(_ pan: PanFrame, _ mode: CommitMode) throws(DisplayError) -> CommitResult {
        guard let shownWindow = panning.window(of: pan.window) else { return .compose(.cannotPan) }
        guard mode == .apply else { return .accepted }
        guard let surface = window.surface, feedback.callback == nil else {
            throw notReady("a panned commit")
        }
        let view = try panning.show(shownWindow, from: pan.column)
        describeAfterConfigure(surface, view)
        wl_surface_attach(surface, view.proxy, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(view.width), Int32(view.height))
        view.held = true
        // The composed frame after it damages the whole surface.
        pool.lastCommitted = nil
        try commitWithFeedback(surface)
        return .accepted
    }

    /// With the first frame after a configure or a new scale: the buffer scale, and the window's
    /// geometry and opaque region in surface units.
    private func describeAfterConfigure(_ surface: OpaquePointer, _ buffer: ShmBuffer) {
        guard configured.atCommit < configured.acked || configured.committedScale != configured.scale else { return }
        wl_surface_set_buffer_scale(surface, configured.scale)
        configured.committedScale = configured.scale
        let scale = Int(configured.scale)
        window.describeGeometry(compositor: connection.compositor, width: buffer.width / scale, height: buffer.height / scale)
    }

    /// Asks for the frame callback (and wp_presentation's time) and commits.
    private func commitWithFeedback(_ surface: OpaquePointer) throws(DisplayError) {
        feedback.callback = wl_surface_frame(surface)
        counters.frameCallbacks += 1
        if let callback = feedback.callback { wl_callback_add_listener(callback, Self.frameListener, listenerData(self)) }
        if let presentation = connection.presentation, let presented = wp_presentation_feedback(presentation, surface) {
            wp_presentation_feedback_add_listener(presented, Self.feedbackListener, listenerData(self))
        }
        wl_surface_commit(surface)
        configured.atCommit = configured.acked
        counters.commits += 1
        try connection.flush()
    }

    /// `what` (a buffer asked for, a commit) while the window cannot take a frame.
    private func notReady(_ what: String) -> DisplayError {
        .unsupported("\(what) while \(size == nil ? "not configured" : "a frame is pending")")
    }

    /// Takes the surface off the screen: the compositor shows what is under it.
    package func restore() { close() }

    // MARK: - Events

    private func configure(serial: UInt32) {
        guard let xdgSurface = window.xdgSurface else { return }
        xdg_surface_ack_configure(xdgSurface, serial)
        configured.acked += 1
        // Every configure (the first map, fullscreen, a new size or state) is answered with a
        // whole frame: cage shows nothing of a surface mapped before its fullscreen configure
        // until the whole surface is committed again.
        pool.lastCommitted = nil
        resize()
    }

    /// The buffer size for the configured size at the current scale; a new size retires the
    /// buffers and asks for a frame, the same size asks for a whole frame.
    private func resize() {
        let newSize = configured.bufferSize(outputMode: connection.currentMode.map { ($0.width, $0.height) })
        guard newSize != size else {
            if events != nil, feedback.callback == nil { events?.emit(.changed) }
            return
        }
        if let size { Log.info("wayland: resized from \(Int(size.width))x\(Int(size.height)) to \(Int(newSize.width))x\(Int(newSize.height))") }
        size = newSize
        pool.retireAll()
        if events != nil { events?.emit(.changed) }
    }

    /// The surface entered or left an output: its scale may change, and with it the buffer.
    private func outputsChanged(entered output: OpaquePointer?, left: OpaquePointer? = nil) {
        let outputs = connection.outputs
        guard configured.track(entered: output, left: left, scaleOf: { proxy in outputs.first { $0.proxy == proxy }?.scale })
        else { return }
        Log.info("wayland: output scale \(configured.scale): drawing at \(configured.scale)x the logical size")
        pool.lastCommitted = nil
        if size != nil { resize() }
    }

    private func frameDone(ms: UInt32) {
        let time = feedback.frameDone(ms: ms, now: MonotonicClock.now())
        // A frame committed before the latest configure was shown in the old state: the frame
        // for the new one is drawn now, and only its callback counts as on screen.
        if configured.atCommit < configured.acked { events?.emit(.changed) } else { events?.emit(.presented(at: time)) }
    }

    private func presented(seconds: UInt64, nanoseconds: UInt32) {
        // Only CLOCK_MONOTONIC times are the daemon's clock; others are left to the callback.
        guard connection.presentationClock == CLOCK_MONOTONIC else { return }
        feedback.presentedAt = Double(seconds) + Double(nanoseconds) / 1e9
    }

    // Filled field by field: libwayland 1.23 (Debian 13) adds preferred_buffer_scale and _transform
    // (wl_surface v6), which the wl_compositor version bound here (4) never sends: they stay NULL.
    nonisolated(unsafe) private static let surfaceListener: UnsafeMutablePointer<wl_surface_listener> = {
        let listener = listenerTable(wl_surface_listener())
        listener.pointee.enter = { data, _, output in listenerOwner(data, as: WaylandOutput.self)?.outputsChanged(entered: output) }
        listener.pointee.leave = { data, _, output in listenerOwner(data, as: WaylandOutput.self)?.outputsChanged(entered: nil, left: output) }
        return listener
    }()

    nonisolated(unsafe) private static let xdgSurfaceListener = listenerTable(xdg_surface_listener(
        configure: { data, _, serial in listenerOwner(data, as: WaylandOutput.self)?.configure(serial: serial) }))

    nonisolated(unsafe) private static let toplevelListener = listenerTable(xdg_toplevel_listener(
        configure: { data, _, width, height, _ in listenerOwner(data, as: WaylandOutput.self)?.configured.size = (width, height) },
        close: { data, _ in listenerOwner(data, as: WaylandOutput.self)?.events?.emit(.ended(.closed)) },
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
