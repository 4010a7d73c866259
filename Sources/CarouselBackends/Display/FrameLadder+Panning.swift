import CarouselCore
import CarouselEngine
import CarouselPixels

/// The panned strip on one output (`PanWindow`): at rest the window around the resting page is
/// drawn into a wide buffer of the output's, and each frame of a page change is that buffer
/// shown from another column, with nothing drawn. A frame the window cannot show (a look that
/// scales or fades cards, a drag past the next page) is composed as before.
extension FrameLadder {
    struct PanState {
        /// The window drawn, and the output's buffer that holds it.
        var window: (layout: PanWindow, buffer: PixelBuffer)?
        /// The column the screen shows the window from; nil: a composed frame is on screen.
        var column: Int?
        /// At rest, a window that waits for cards of the pages around still decoding (a decode
        /// draws the frame again): asked for again after the composed frame in its place, which
        /// asks the image store for the screen's cards alone (its decodes of the others would stop).
        var pending: PanWindow?
        var awaitsCards: Bool { pending != nil }
        /// The strip came to rest on a page the window on screen holds, shown from it: the
        /// window around that page is drawn at the next flip, not in the frame that came to rest.
        var windowDue = false
    }

    /// The pages drawn around the resting one: the next two either way, so a window reaches a
    /// neighbour's view and its overshoot.
    package static let pagesAround = [-2, -1, 1, 2]

    /// Shows `layout` panned if it can, and says whether it did. A frame the window on screen
    /// holds is shown from it: every frame of a page change, and the frame at rest on the next
    /// page, at once; the window around that page is drawn after that frame's flip
    /// (`windowDue`), into the wide buffer not on screen, once every card of it is decoded; so is
    /// the window around a first frame, which is composed.
    mutating func commitPanned(_ layout: FrameLayout, replacing onScreen: FrameLayout?, on output: DisplayOutput,
                               renderer: FrameRenderer,
                               around: () -> [(distance: Double, layout: FrameLayout)]) throws(DisplayError) -> Bool {
        let windowDue = pan.windowDue
        (pan.pending, pan.windowDue) = (nil, false)
        guard refused.allows(.panned), renderer.drawsPanWindows, PanWindow.isFlat(layout) else { return false }
        guard onScreen != nil else {
            // A first frame (at start, or as the screens wake) is composed, in its own time;
            // the window is asked for after its flip, so that the first page change pans.
            pan.windowDue = !layout.isMoving
            return false
        }
        if let window = pan.window, layout.isMoving || window.layout.anchor == layout || !windowDue,
           let column = window.layout.column(for: layout, near: pan.column ?? window.layout.restColumn) {
            pan.windowDue = !layout.isMoving && window.layout.anchor != layout
            return try commitWindow(window, from: column, on: output)
        }
        guard !layout.isMoving else { return false }
        guard let made = PanWindow(anchor: layout, around: around()) else {
            Log.debug("\(output.logName): no window around this page (a single page, or a card not flat)")
            return false
        }
        guard let wide = try output.acquireWide(width: made.width, height: Int(made.layout.viewport.height)) else {
            Log.debug("\(output.logName): the output cannot pan")
            refused.refuse(.panned, because: .cannotPan)
            return false
        }
        if !renderer.isFinal(made.layout) {
            pan.pending = made
            // The window on screen may show the page meanwhile: nothing to commit then.
            return pan.column != nil && onScreen == layout
        }
        renderer.draw(made.layout, into: wide)
        return try commitWindow((made, wide), from: made.restColumn, on: output)
    }

    private mutating func commitWindow(_ window: (layout: PanWindow, buffer: PixelBuffer), from column: Int,
                                       on output: DisplayOutput) throws(DisplayError) -> Bool {
        switch try output.commit(FrameState(pan: PanFrame(window: window.buffer, column: column)), .apply) {
        case .accepted:
            pan.window = window
            pan.column = column
            pathLog.panning(window.layout, on: output.logName)
            return true
        case .compose(let reason):
            pathLog.composing(reason, on: output.logName)
            pan = PanState()
            refused.refuse(.panned, because: reason)
            return false
        }
    }
}
