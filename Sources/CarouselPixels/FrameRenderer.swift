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
}

extension FrameRenderer {
    package var needsRefinement: Bool { false }
}

/// The daemon's renderer: the pixels compositor over the image store's pre-scaled cards.
/// On one of several screens, it draws the engine's layout as that screen shows it (`view`).
package final class CompositorRenderer: FrameRenderer {
    package let store: ImageStore
    package let compositor: Compositor
    package let view: ViewTransform

    package init(store: ImageStore, config: CarouselConfig, view: ViewTransform = .identity) {
        self.store = store
        self.view = view
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

    package var needsRefinement: Bool { compositor.needsRefinement }
}
