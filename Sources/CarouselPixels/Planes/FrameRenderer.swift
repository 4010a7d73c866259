import CarouselCore
import CarouselEngine

/// Draws one engine layout into a frame buffer. Renderers only write to the target (scanout
/// memory is often uncached: never read it back).
package protocol FrameRenderer: AnyObject {
    func draw(_ layout: FrameLayout, into target: PixelBuffer)
    /// Forget what any buffer shows: the buffers were replaced (new screen or mode), so a
    /// new buffer at a recycled address must not be taken for an old one.
    func invalidate()
    /// The last frame was sampled coarsely for speed: draw the same layout again, finely.
    var needsRefinement: Bool { get }
    /// The layout's cards placed for overlay planes with their pixels, or why none can be
    /// offered; the output decides whether its planes take them.
    func planeCards(_ layout: FrameLayout) -> PlaneOffer
    /// Draws the layout without its cards (background and dots): the primary plane under them.
    func drawBackground(_ layout: FrameLayout, into target: PixelBuffer)
    /// The decoded cards of layouts the strip may show next, in their order, asking for none.
    func upcomingCards(_ layouts: [FrameLayout]) -> [Card]
    /// Asks for the layout's cards and tells whether a frame of it now would be final: every
    /// visible card full (or failed), none a preview.
    func isFinal(_ layout: FrameLayout) -> Bool
    /// True when this renderer draws `PanWindow`s as the screen shows them: a flat look, the
    /// screen is the engine's whole view (no span, no scaled mirror), and no page dots are drawn
    /// (they stay put while the cards slide, which a window cannot show).
    var drawsPanWindows: Bool { get }
}

/// A frame's cards for overlay planes, or the reason the frame must be composed on the CPU.
package enum PlaneOffer {
    case cards([PlaneCard])
    case none(ComposeReason)
}

extension FrameLayout {
    /// What the primary plane shows under cards on overlay planes: the background and the
    /// dots, which change with the page, not with motion (a page change redraws it once).
    package var background: FrameLayout {
        var bare = self
        bare.cards = []
        bare.isMoving = false
        return bare
    }
}

extension FrameRenderer {
    package var needsRefinement: Bool { false }
    package func planeCards(_ layout: FrameLayout) -> PlaneOffer { .none(.noOverlayPlanes) }
    package func drawBackground(_ layout: FrameLayout, into target: PixelBuffer) { draw(layout, into: target) }
    package func upcomingCards(_ layouts: [FrameLayout]) -> [Card] { [] }
    package func isFinal(_ layout: FrameLayout) -> Bool { true }
    package var drawsPanWindows: Bool { false }
}

/// The daemon's renderer: the pixels compositor over the image store's pre-scaled cards.
/// On one of several screens, it draws the engine's layout as that screen shows it (`view`).
package final class CompositorRenderer: FrameRenderer {
    package let store: ImageStore
    package let compositor: Compositor
    package let view: ViewTransform
    package let drawsPanWindows: Bool

    package init(store: ImageStore, config: CarouselConfig, view: ViewTransform = .identity) {
        self.store = store
        self.view = view
        drawsPanWindows = view == .identity && !config.dots.shown && PanWindow.isFlat(config.emphasis)
        compositor = Compositor(config: Self.scaledDots(config, by: view.scale), store: store,
                                origin: (view.originX, view.originY))
    }

    package func draw(_ layout: FrameLayout, into target: PixelBuffer) {
        if !compositor.compose(view.apply(layout), into: target) { Log.debug("frame unchanged in its buffer: nothing composed") }
    }

    /// A mirror at twice the size shows dots twice as large, like everything else on it.
    package static func scaledDots(_ config: CarouselConfig, by scale: Double) -> CarouselConfig {
        guard scale != 1 else { return config }
        var scaled = config
        scaled.dots.size *= scale
        scaled.dots.spacing *= scale
        scaled.dots.margin *= scale
        return scaled
    }

    package func invalidate() { compositor.invalidate() }

    package func planeCards(_ layout: FrameLayout) -> PlaneOffer {
        let shown = view.apply(layout)
        let cards = store.cards(for: shown)
        guard let placed = PlaneAssignment.place(shown, cardSize: { cards[$0].map { ($0.width, $0.height) } }) else {
            return .none(.cardNotDecoded)
        }
        return .cards(placed.compactMap { placement in cards[placement.item].map { PlaneCard(placed: placement, card: $0) } })
    }

    package func drawBackground(_ layout: FrameLayout, into target: PixelBuffer) {
        compositor.compose(view.apply(layout).background, into: target)
    }

    package func upcomingCards(_ layouts: [FrameLayout]) -> [Card] {
        layouts.flatMap { store.decodedCards(for: view.apply($0)) }
    }

    package var needsRefinement: Bool { compositor.needsRefinement }

    package func isFinal(_ layout: FrameLayout) -> Bool { store.hasFullCards(for: view.apply(layout)) }
}
