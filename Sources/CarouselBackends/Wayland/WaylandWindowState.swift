import CarouselCore
import CarouselEngine
import CWayland

// The parts of a `WaylandOutput`'s state, each with what it does to itself.

/// The size of the last toplevel configure, applied when its xdg_surface configure is acked,
/// and the configures acked so far and when the pending frame was committed: a frame
/// committed before the latest configure is not what the compositor now shows. With them the
/// outputs the surface is on, the buffer scale they ask for and the one last committed.
struct ConfigureState {
    var size: (width: Int32, height: Int32) = (0, 0)
    var acked = 0
    var atCommit = 0
    var entered: [OpaquePointer] = []
    var scale: Int32 = 1
    var committedScale: Int32 = 1

    /// The buffer for the configured size at `scale`. A configured 0 means "your choice": the
    /// output's logical size (its mode over the scale), as a fullscreen client would pick.
    func bufferSize(outputMode: (width: Int32, height: Int32)?) -> Size {
        let scale = Int(scale)
        let width = size.width > 0 ? Int(size.width) : Int(outputMode?.width ?? 1280) / scale
        let height = size.height > 0 ? Int(size.height) : Int(outputMode?.height ?? 720) / scale
        return Size(width: Double(width * scale), height: Double(height * scale))
    }

    /// The surface entered or left an output; `scale` becomes the largest of those it is on.
    /// True when the scale changed.
    mutating func track(entered: OpaquePointer?, left: OpaquePointer?, scaleOf: (OpaquePointer) -> Int32?) -> Bool {
        if let entered { self.entered.append(entered) }
        if let left { self.entered.removeAll { $0 == left } }
        let scales = self.entered.compactMap(scaleOf)
        let new = max(1, scales.max() ?? scale)
        defer { scale = new }
        return new != scale
    }
}

/// The window's protocol objects, destroyed together when the window goes.
struct WindowObjects {
    var surface: OpaquePointer?
    var xdgSurface: OpaquePointer?
    var toplevel: OpaquePointer?
    var inhibitor: OpaquePointer?
    /// The output it is fullscreen on, when one was named (the name outlives the window).
    var outputName: String?
    var output: OpaquePointer?

    /// Says, with the first frame after each configure, that the whole surface is the window
    /// and opaque (compositors skip what is under it). In surface (logical) coordinates.
    func describeGeometry(compositor: OpaquePointer?, width: Int, height: Int) {
        if let xdgSurface { xdg_surface_set_window_geometry(xdgSurface, 0, 0, Int32(width), Int32(height)) }
        guard let surface, let compositor, let region = wl_compositor_create_region(compositor) else { return }
        wl_region_add(region, 0, 0, Int32(width), Int32(height))
        wl_surface_set_opaque_region(surface, region)
        wl_region_destroy(region)
    }

    mutating func destroy() {
        if let inhibitor { zwp_idle_inhibitor_v1_destroy(inhibitor) }
        if let toplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface { xdg_surface_destroy(xdgSurface) }
        if let surface { wl_surface_destroy(surface) }
        self = WindowObjects(outputName: outputName)
    }
}

/// The pending frame callback, and when the compositor showed the latest commit.
struct FrameFeedback {
    var callback: OpaquePointer?
    /// wp_presentation's time for the latest presented commit, used by the next frame callback.
    var presentedAt: Double?
    private var clock = WaylandClock()

    /// The callback is done: when its frame was shown, on the monotonic clock.
    mutating func frameDone(ms: UInt32, now: Double) -> Double {
        if let callback { wl_callback_destroy(callback) }
        callback = nil
        defer { presentedAt = nil }
        return presentedAt.map { min($0, now) } ?? clock.seconds(ms: ms, now: now)
    }
}

