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

/// The spec of a card's preview: what is shown in the card's rectangle, scaled up, until the
/// full card is decoded, so a card is never drawn in the background colour.
///
/// Why 1/8: libjpeg's smallest DCT scale, a few milliseconds even for a 5K baseline JPEG
/// (`ImageDecoder` picks the smallest scale that covers the spec); PNG and WebP simply decode
/// to the small spec. A 1536x864 card's preview is 192x108, 83 KB. A preview is a draft: a
/// progressive JPEG's comes from its first scans, which hold the block averages a 1/8 scale
/// shows, not from all of them.
extension CardSpec {
    package static let previewDivisor = 8
    package static let previewMinimum = 16

    /// nil when the card is so small that a preview would be at least a quarter of its width
    /// or height: its own decode costs about as much, so the preview would only delay it.
    package var preview: CardSpec? {
        var small = self
        small.width = max(Self.previewMinimum, (width + Self.previewDivisor / 2) / Self.previewDivisor)
        small.height = max(Self.previewMinimum, (height + Self.previewDivisor / 2) / Self.previewDivisor)
        guard small.width * 4 <= width, small.height * 4 <= height else { return nil }
        small.draft = true
        return small
    }
}
