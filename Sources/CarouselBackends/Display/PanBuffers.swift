import CarouselCore
import CarouselPixels
import CDRM
import Glibc

/// A screen-sized view of a wider dumb buffer from `column`: the primary plane shows the panned
/// strip's window from that column. The view keeps its buffer alive.
///
/// Drivers show a column one of two ways (`PanBuffers.Method`): bochs-drm scans out from a
/// framebuffer's offset and ignores the plane's source position, so there the view is a
/// framebuffer of its own (ADDFB2 with an offset and the wide buffer's pitch); virtio-gpu hands
/// its host the plane's source rectangle, so there the view is the wide framebuffer with SRC_X.
package final class FramebufferView: ScanoutBuffer {
    package let buffer: DumbBuffer
    package let column: Int
    package let framebufferID: UInt32
    package let width: Int
    package let height: Int
    package let sourceX: Int
    /// The framebuffer to remove with the view: its own (by offset), not the window's.
    private let ownFramebuffer: (fd: Int32, id: UInt32)?

    init(card: DrmCard, over buffer: DumbBuffer, column: Int, width: Int, by method: PanBuffers.Method) throws(DisplayError) {
        guard column >= 0, column + width <= buffer.width else {
            throw .unsupported("a \(width) pixel view from column \(column) of a \(buffer.width) pixel window")
        }
        self.buffer = buffer; self.column = column; self.width = width; self.height = buffer.height
        switch method {
        case .sourceX:
            framebufferID = buffer.framebufferID; sourceX = column; ownFramebuffer = nil
        case .framebufferOffset:
            var fb: UInt32 = 0
            guard DumbBuffer.addFramebuffer(fd: card.fd, handle: buffer.handle, width: width, height: buffer.height,
                                            pitch: UInt32(buffer.stride), offset: UInt32(column * 4), into: &fb) == 0 else {
                throw .system(call: "drmModeAddFB2 (a view from column \(column))", errno: Glibc.errno, path: "panned strip")
            }
            framebufferID = fb; sourceX = 0; ownFramebuffer = (card.fd, fb)
        }
    }

    /// The pixels the view shows, to read (`ctl screenshot`).
    package var pixelBuffer: PixelBuffer {
        PixelBuffer(base: buffer.pixels + column * 4, width: width, height: height, stride: buffer.stride)
    }

    deinit { if let ownFramebuffer { drmModeRmFB(ownFramebuffer.fd, ownFramebuffer.id) } }
}

/// The panned strip's buffers on one screen: two wide windows (one on screen while the other
/// is drawn around the next resting page), and the views of the columns frames showed lately.
///
/// Views are kept, the last `keptViews` used, rather than made for a frame and removed after
/// it: a view is the same for any picture drawn into its window, and page changes pass the same
/// columns again. Removing a framebuffer the kernel still holds (the state it replaced is let go
/// by the commit's worker, after the flip event) waits for a kernel worker, a context switch
/// each frame; a view used `keptViews` frames ago is long let go.
package final class PanBuffers {
    /// How the driver shows a window from a column (`FramebufferView`).
    package enum Method {
        case framebufferOffset, sourceX
    }

    private let card: DrmCard
    private let method: Method
    /// The screen's width: every view's.
    private let viewWidth: Int
    private var windows: [DumbBuffer] = []
    /// Views by use, the latest last.
    private var views: [FramebufferView] = []
    static let keptViews = 64

    init(card: DrmCard, viewWidth: Int, method: Method) {
        self.card = card; self.viewWidth = viewWidth; self.method = method
    }

    /// A window of this size that no view in use (on screen or queued: the output's record)
    /// shows, to draw into. The pair is made on first use and again for another size (the views
    /// on screen keep the old one).
    func acquire(width: Int, height: Int, viewsInUse: [FramebufferView]) throws(DisplayError) -> PixelBuffer {
        if windows.first.map({ $0.width != width || $0.height != height }) ?? true {
            windows = []
            views.removeAll { view in !viewsInUse.contains { $0 === view } }
            for _ in 0..<2 { windows.append(try DumbBuffer(card: card, width: width, height: height)) }
            DumbBuffer.faultInAhead(windows)
            Log.info("panned strip: two \(width)x\(height) windows, shown \(method == .sourceX ? "by SRC_X" : "by framebuffer offset")")
        }
        guard let free = windows.first(where: { window in !viewsInUse.contains { $0.buffer === window } }) else {
            throw .unsupported("both panned windows are on screen or queued")
        }
        return free.pixelBuffer
    }

    /// The view of `window` (a buffer `acquire` gave) from `column`.
    func view(of window: PixelBuffer, at column: Int, viewsInUse: [FramebufferView]) throws(DisplayError) -> FramebufferView {
        guard let buffer = windows.first(where: { $0.pixels == window.base }) else {
            throw .unsupported("a panned frame of a window this screen does not hold")
        }
        if let kept = views.firstIndex(where: { $0.buffer === buffer && $0.column == column }) {
            let view = views.remove(at: kept)
            views.append(view)
            return view
        }
        let view = try FramebufferView(card: card, over: buffer, column: column, width: viewWidth, by: method)
        views.append(view)
        if views.count > Self.keptViews, let oldest = views.firstIndex(where: { view in !viewsInUse.contains { $0 === view } }) {
            views.remove(at: oldest)
        }
        return view
    }
}
