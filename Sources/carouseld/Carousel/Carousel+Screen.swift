import CarouselBackends
import CarouselCore
import CarouselEngine
import CarouselPixels

extension Carousel {
    /// One screen the carousel is shown on: its output, its renderer (which knows where on the
    /// carousel this screen looks: `ViewTransform`), and what it shows now.
    struct Screen {
        let output: DisplayOutput
        var renderer: FrameRenderer = NoRenderer()
        var lastDrawn: FrameLayout?
        var redraw = true
        /// The power state last committed: a screen switched off is committed `.off` once.
        var power: FrameState.Power?
        /// How frames reached this screen, each way said once per reload.
        var pathLog = FramePathLog()
        /// The layout without cards that the primary plane shows under cards on planes (nil: a
        /// composed frame, or unknown).
        var background: FrameLayout?
        /// The output answered that it has no overlay planes for cards: none are offered again
        /// until the screen or the renderer changes. Offering costs a look-up in the image store
        /// that also steers its decodes, which a frame must not do twice.
        var offersCards = true

        init(output: DisplayOutput) { self.output = output }

        /// Shows `layout`: its cards on overlay planes where the output takes them (tested, then
        /// applied), or composed on the CPU into a buffer of the output's.
        mutating func show(_ layout: FrameLayout, upcoming: () -> [FrameLayout]) throws(DisplayError) {
            try commit(layout, upcoming: upcoming)
            power = .on
            lastDrawn = layout
            redraw = false
        }

        private mutating func commit(_ layout: FrameLayout, upcoming: () -> [FrameLayout]) throws(DisplayError) {
            switch offersCards ? renderer.planeCards(layout) : .none(.noOverlayPlanes) {
            case .none(let reason):
                pathLog.composing(reason, on: name)
            case .cards(let cards):
                var state = FrameState(cards: cards)
                if case .compose(let reason) = try output.commit(state, .test) {
                    pathLog.composing(reason, on: name)
                    offersCards = reason.kind != .noOverlayPlanes
                    break
                }
                // The background and dots change only with the page: most frames move planes alone.
                let bare = layout.background
                if bare != background {
                    let buffer = try output.acquire()
                    renderer.drawBackground(layout, into: buffer)
                    state.primary = buffer
                }
                if !layout.isMoving { state.upcomingCards = renderer.upcomingCards(upcoming()) }
                switch try output.commit(state, .apply) {
                case .accepted:
                    background = bare
                    pathLog.onPlanes(cards.count, on: name)
                    return
                case .compose(let reason):
                    pathLog.composing(reason, on: name)
                }
            }
            let buffer = try output.acquire()
            renderer.draw(layout, into: buffer)
            _ = try output.commit(FrameState(primary: buffer), .apply)
            background = nil
        }

        /// Commits the off state once (no signal); the next frame lights the screen again.
        mutating func switchOff() throws(DisplayError) {
            _ = try output.commit(.off, .apply)
            power = .off
            background = nil
        }

        private var name: String { output.connectorName ?? output.devicePath }
    }
}

/// Which way a screen's frames go, each way said once per reload: the cards on overlay planes,
/// or composed on the CPU for a reason. A page change that scales its cards alternates between
/// the two every few frames; the log must not.
struct FramePathLog {
    private var said: Set<ComposeReason.Kind> = []
    private var saidPlanes = false

    /// Start-up's moments and outputs without planes are not worth the log.
    private static let silent: Set<ComposeReason.Kind> = [.cardNotDecoded, .notLit, .noOverlayPlanes]

    /// True when it was said (the first time for its kind).
    @discardableResult
    mutating func composing(_ reason: ComposeReason, on name: String) -> Bool {
        guard !Self.silent.contains(reason.kind), said.insert(reason.kind).inserted else { return false }
        Log.info("\(name): composing frames on the CPU: \(reason)")
        return true
    }

    @discardableResult
    mutating func onPlanes(_ cards: Int, on name: String) -> Bool {
        guard !saidPlanes else { return false }
        saidPlanes = true
        Log.info("\(name): cards on overlay planes (\(cards) in this frame), background and dots on the primary plane")
        return true
    }
}

/// Draws nothing: a screen's renderer before the carousel made the real ones.
private final class NoRenderer: FrameRenderer {
    func draw(_ layout: FrameLayout, into target: PixelBuffer) {}
    func invalidate() {}
}
