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
