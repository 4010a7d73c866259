import CarouselBackends
import CarouselCore
import CarouselEngine
import CarouselPixels

/// The panned strip on one screen (`PanWindow`): at rest the window around the resting page is
/// drawn into a wide buffer of the output's, and each frame of a page change is that buffer
/// shown from another column, with nothing drawn. A frame the window cannot show (a look that
/// scales or fades cards, a drag past the next page) is composed as before.
extension Carousel {
    struct PanState {
        /// The window drawn, and the output's buffer that holds it.
        var window: (layout: PanWindow, buffer: PixelBuffer)?
        /// The column the screen shows the window from; nil: a composed frame is on screen.
        var column: Int?
        /// The output answered that it cannot pan (or its driver refused a panned frame):
        /// frames are composed until the screen or the renderer changes.
        var refused = false
        /// At rest, the window waits for cards of the pages around still decoding: a decode
        /// draws the frame again.
        var awaitsCards = false
        /// That window: asked for again after the composed frame in its place, which asks the
        /// image store for the screen's cards alone (its decodes of the others would stop).
        var pending: PanWindow?
    }
}

extension Carousel.Screen {
    /// The pages drawn around the resting one: the next two either way, so a window reaches a
    /// neighbour's view and its overshoot.
    static let pagesAround = [-2, -1, 1, 2]

    /// Shows `layout` panned if it can, and says whether it did. At rest on a page the window
    /// was not drawn around, the window is drawn first (into the wide buffer that is not on
    /// screen), once every card of it is decoded.
    mutating func commitPanned(_ layout: FrameLayout,
                               around: () -> [(distance: Double, layout: FrameLayout)]) throws(DisplayError) -> Bool {
        (pan.awaitsCards, pan.pending) = (false, nil)
        guard !pan.refused, power == .on, renderer.drawsPanWindows, PanWindow.isFlat(layout) else { return false }
        var window = pan.window
        let column: Int
        if !layout.isMoving {
            if window?.layout.anchor != layout {
                guard let made = PanWindow(anchor: layout, around: around()) else {
                    Log.debug("\(name): no window around this page (a single page, or a card not flat)")
                    return false
                }
                guard let wide = try output.acquireWide(width: made.width, height: Int(made.layout.viewport.height)) else {
                    Log.debug("\(name): the output cannot pan")
                    pan.refused = true
                    return false
                }
                pan.awaitsCards = !renderer.isFinal(made.layout)
                guard !pan.awaitsCards else { pan.pending = made; return false }
                renderer.draw(made.layout, into: wide)
                window = (made, wide)
            }
            column = window!.layout.restColumn
        } else {
            guard let window, let found = window.layout.column(for: layout, near: pan.column ?? window.layout.restColumn) else {
                return false
            }
            column = found
        }
        guard let window else { return false }
        switch try output.commit(FrameState(pan: PanFrame(window: window.buffer, column: column)), .apply) {
        case .accepted:
            pan.pending = nil
            pan.window = window
            pan.column = column
            pathLog.panning(window.layout, on: name)
            return true
        case .compose(let reason):
            pathLog.composing(reason, on: name)
            pan = Carousel.PanState(refused: true)
            return false
        }
    }
}
