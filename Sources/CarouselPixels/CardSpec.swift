import CarouselEngine

/// What every card of a layout looks like once pre-scaled: its size in whole pixels, how the
/// picture fits, the colour behind transparent or letterboxed parts, and the pixel cap.
package struct CardSpec: Hashable, Sendable {
    package var width: Int
    package var height: Int
    package var fit: FitMode
    package var background: RGB
    package var maxImagePixels: Int
    /// A quick approximation is enough (previews): a progressive JPEG is made from its first
    /// scans only, which hold each block's average colour, instead of from all of them.
    package var draft = false

    package init(width: Int, height: Int, fit: FitMode = .cover, background: RGB = RGB(0x101010),
         maxImagePixels: Int = 100_000_000) {
        self.width = max(1, width); self.height = max(1, height)
        self.fit = fit; self.background = background; self.maxImagePixels = maxImagePixels
    }

    package init(config: CarouselConfig, maxImagePixels: Int, cardWidth: Double, cardHeight: Double) {
        self.init(width: Int(cardWidth.rounded()), height: Int(cardHeight.rounded()), fit: config.fit,
                  background: config.background, maxImagePixels: maxImagePixels)
    }

    package var byteCount: Int { width * height * 4 }
}
