import CarouselEngine

/// Draws one engine layout into a frame buffer. Renderers only write to the target (scanout
/// memory is often uncached: never read it back).
protocol FrameRenderer: AnyObject {
    func draw(_ layout: FrameLayout, into target: PixelBuffer)
    /// Forget what any buffer shows: the buffers were replaced (new screen or mode), so a
    /// new buffer at a recycled address must not be taken for an old one.
    func invalidate()
    /// The last frame was sampled coarsely for speed: draw the same layout again, finely.
    var needsRefinement: Bool { get }
}

extension FrameRenderer {
    var needsRefinement: Bool { false }
}

/// The daemon's renderer: the pixels compositor over the image store's pre-scaled cards.
final class CompositorRenderer: FrameRenderer {
    let store: ImageStore
    let compositor: Compositor

    init(store: ImageStore, config: CarouselConfig) {
        self.store = store
        compositor = Compositor(config: config, store: store)
    }

    func draw(_ layout: FrameLayout, into target: PixelBuffer) {
        if !compositor.compose(layout, into: target) { Log.debug("frame unchanged in its buffer: nothing composed") }
    }

    func invalidate() { compositor.invalidate() }

    var needsRefinement: Bool { compositor.needsRefinement }
}
