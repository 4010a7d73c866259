import CarouselConfig
import CarouselEngine
import CarouselPixels

/// A screen in memory for the commands that write frames (`render`, `replay --frames`,
/// `splash install`): a layout is drawn by the daemon's image store and compositor once every
/// card it shows is decoded (they have the time; the daemon draws previews instead).
final class OffscreenScreen {
    private let store: ImageStore
    private let compositor: Compositor
    private let image: PixelImage
    /// Where this screen looks at the carousel (one screen of a span or mirror).
    private let view: ViewTransform

    /// `viewport`: the carousel's frame; `size`: the picture written (one screen of several,
    /// seen through `view`). `seenInPassing`: a fast frame is sampled nearest as on the panel
    /// (a replay); a still frame is looked at, always with the full-quality filter (a render).
    init(config: CarouselConfig, shell: ShellSettings, paths: [String], viewport: Size, size: (width: Int, height: Int),
         view: ViewTransform = .identity, seenInPassing: Bool, cache: (any CardCaching)? = nil) throws {
        guard let image = PixelImage(width: size.width, height: size.height) else {
            throw PNGWriter.Failure(path: "", reason: "out of memory for a \(size.width)x\(size.height) frame")
        }
        self.image = image
        self.view = view
        store = ImageStore(paths: paths, config: config, shell: shell,
                           viewport: Size(width: viewport.width * view.scale, height: viewport.height * view.scale),
                           cache: cache)
        compositor = Compositor(config: CompositorRenderer.scaledDots(config, by: view.scale), store: store,
                                adaptsToMotion: seenInPassing, origin: (view.originX, view.originY))
    }

    /// The commands exit after their last frame: the store's decode threads (still taking
    /// the cards ahead) are stopped and waited for first, not left running through the
    /// process's exit (`carouseld splash install` once died of a segfault there, in CI).
    deinit { store.finish() }

    /// `layout` drawn with its cards in full. The buffer is reused by the next call.
    func show(_ layout: FrameLayout) -> PixelBuffer {
        let shown = view.apply(layout)
        store.waitUntilLoaded(for: shown)
        compositor.compose(shown, into: image.buffer)
        return image.buffer
    }
}
