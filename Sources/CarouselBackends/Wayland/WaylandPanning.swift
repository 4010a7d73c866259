import CarouselCore
import CarouselPixels
import CWayland

/// The panned strip under a compositor (issue 34), as `PanBuffers` is on KMS: a window of the
/// strip (`PanWindow`) is drawn at rest into a wide wl_shm pool, and each frame of a page change
/// attaches a wl_buffer that views that pool from another column (an offset into it, with the
/// window's stride). Nothing is drawn or copied in the daemon.
///
/// Why views and not wp_viewport's source rectangle: wlroots 0.15's pixman renderer (sway 1.7
/// and cage 0.1.4 on Debian 12 without a GPU) ignores the rectangle's offset and showed the
/// wrong column; a buffer is shown right by every compositor.
struct WaylandPanning {
    /// The windows: the one on screen, the next one, and one the compositor has not released.
    private var windows: [ShmWindow] = []
    /// The window and view on screen; nil while a composed frame is.
    private(set) var shown: (window: ShmWindow, view: ShmBuffer)?
    /// Frames committed panned, for the SIGUSR1 figures.
    private(set) var frames = 0

    private static let maxWindows = 3

    /// A window to draw into, `width` × `height`, its views `viewWidth` wide: neither the one on
    /// screen nor one the compositor holds a view of. Nil when all are in use.
    mutating func free(shm: OpaquePointer?, width: Int, height: Int, viewWidth: Int) throws(DisplayError) -> ShmWindow? {
        guard let shm else { return nil }
        let onScreen = shown?.window
        func isFree(_ window: ShmWindow) -> Bool { window !== onScreen && !window.isHeld }
        windows.removeAll { !$0.fits(width, height, viewWidth) && isFree($0) }
        if let free = windows.first(where: { $0.fits(width, height, viewWidth) && isFree($0) }) { return free }
        guard windows.count < Self.maxWindows else { return nil }
        let window = try ShmWindow(shm: shm, width: width, height: height, viewWidth: viewWidth)
        windows.append(window)
        return window
    }

    /// The window whose pixels `window` are, if it is one of these.
    func window(of pixels: PixelBuffer) -> ShmWindow? { windows.first { $0.memory.pixels.base == pixels.base } }

    /// The view of `window` from `column`, now on screen (the caller attaches and commits it).
    mutating func show(_ window: ShmWindow, from column: Int) throws(DisplayError) -> ShmBuffer {
        let view = try window.view(at: column, keeping: shown?.view)
        shown = (window, view)
        frames += 1
        return view
    }

    /// A composed frame is attached next.
    mutating func composed() { shown = nil }

    /// The window goes with the surface.
    mutating func removeAll() { self = WaylandPanning() }
}

/// One window of the panned strip in a wl_shm pool of its own, and the buffers that view it from
/// a column: the last 64 used are kept, not made and destroyed each frame (page changes pass the
/// same columns again), as DRM's framebuffer views are.
final class ShmWindow {
    let memory: SharedMemory
    private let pool: OpaquePointer
    private let viewWidth: Int
    private var views: [Int: ShmBuffer] = [:]

    private static let keptViews = 64

    init(shm: OpaquePointer, width: Int, height: Int, viewWidth: Int) throws(DisplayError) {
        // wl_shm takes a view only if a whole stride times its height fits after its offset.
        memory = try SharedMemory(width: width, height: height, padding: width * 4)
        guard let pool = wl_shm_create_pool(shm, memory.file.rawValue, Int32(memory.byteCount)) else {
            throw .compositor("wl_shm.create_pool failed for a \(width)x\(height) window")
        }
        self.pool = pool
        self.viewWidth = viewWidth
    }

    // The views made from it stay valid.
    deinit { wl_shm_pool_destroy(pool) }

    func fits(_ width: Int, _ height: Int, _ viewWidth: Int) -> Bool {
        memory.pixels.width == width && memory.pixels.height == height && self.viewWidth == viewWidth
    }

    /// True while the compositor holds a view of it.
    var isHeld: Bool { views.values.contains { $0.held } }

    /// The view from `column`; when 64 are kept, those the compositor does not hold go (never
    /// `keeping`, the one on screen).
    func view(at column: Int, keeping onScreen: ShmBuffer?) throws(DisplayError) -> ShmBuffer {
        if let view = views[column] { return view }
        if views.count >= Self.keptViews { views = views.filter { $0.value.held || $0.value === onScreen } }
        let view = try ShmBuffer(pool: pool, memory: memory, column: column, width: viewWidth)
        views[column] = view
        return view
    }
}
