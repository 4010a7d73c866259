import CarouselCore
import CarouselPixels

/// One dumb-buffer framebuffer per card shown on an overlay plane, kept as `PlaneBufferPool`
/// says: the card's pixels are copied in once, and later frames move the plane, not the pixels.
package final class CardFramebuffers {
    private let card: DrmCard
    private var pool = PlaneBufferPool<DumbBuffer>()
    private var copies = 0

    package init(card: DrmCard) { self.card = card }

    /// The framebuffer showing `source`, made (and filled) on first use.
    package func buffer(for source: Card) throws(DisplayError) -> DumbBuffer {
        try pool.buffer(for: source, make: make) { buffer in fill(buffer, with: source, when: "for a frame") }
    }

    /// Copies the cards a page change may bring on screen into spares now, while nothing moves
    /// (see `PlaneBufferPool.prepare`).
    package func prepare(_ sources: [Card]) throws(DisplayError) {
        try pool.prepare(sources, make: make) { source, buffer in fill(buffer, with: source, when: "ahead, at rest") }
    }

    private func make(width: Int, height: Int) throws(DisplayError) -> DumbBuffer {
        try DumbBuffer(card: card, width: width, height: height)
    }

    /// Called inside the pool's own calls: it counts copies itself rather than read the pool.
    private func fill(_ buffer: DumbBuffer, with source: Card, when: String) {
        copies += 1
        Log.debug("plane buffers: \(source.content?.path ?? "a card") copied in \(when) (copy \(copies))")
        // Card rows are a8r8g8b8 with alpha 255; the plane reads them as XRGB8888.
        RowCopy.copy(from: source.pictureBase, stride: source.stride, at: 0, 0, to: buffer.pixels, stride: buffer.stride,
                     at: 0, 0, width: source.width, height: source.height)
    }

    /// A commit was made: buffers no frame on screen or queued uses any more become spares.
    package func committed() { pool.committed() }

    /// Frees every buffer (the screen is composed, or gone); call only once no plane shows them.
    package func removeAll() { pool.removeAll() }

    /// Buffers showing cards, and spares.
    package var count: (cards: Int, spares: Int) { pool.count }
}
