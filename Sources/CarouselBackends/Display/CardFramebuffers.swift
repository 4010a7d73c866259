import CarouselPixels
import Glibc

/// One scanout framebuffer per card shown on an overlay plane: the card's pixels are copied
/// into a dumb buffer once, and every later frame moves the plane, not the pixels.
///
/// Keyed by the card object (the store makes a new one when a picture is decoded again, so a
/// new card never finds an old one's pixels). A buffer stays while a committed frame may still
/// scan it out: it is let go only after two commits without it (the one on screen and the one
/// queued). A buffer let go is kept for the next card of its size: each page change brings one
/// card in as one leaves, and a new dumb buffer's pages cost the kernel a fault and a clearing
/// each (at 1920x1080 most of a page change's CPU on the plane path).
package final class CardFramebuffers {
    private let card: DrmCard
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var commits = 0
    private var spares: [DumbBuffer] = []
    /// Spares kept: a page change lets go of one card, a jump of a few more.
    private static let sparesKept = 2

    private struct Entry {
        let source: Card   // held so its identity is not reused while the buffer lives
        let buffer: DumbBuffer
        var lastCommit: Int
    }

    package init(card: DrmCard) { self.card = card }

    /// The framebuffer showing `source`, made (and filled) on first use.
    package func buffer(for source: Card) throws(DisplayError) -> DumbBuffer {
        let key = ObjectIdentifier(source)
        if let entry = entries[key] {
            entries[key]?.lastCommit = commits
            return entry.buffer
        }
        let buffer: DumbBuffer
        if let spare = spares.firstIndex(where: { $0.width == source.width && $0.height == source.height }) {
            buffer = spares.remove(at: spare)
        } else {
            buffer = try DumbBuffer(card: card, width: source.width, height: source.height)
        }
        // Card rows are a8r8g8b8 with alpha 255; the plane reads them as XRGB8888.
        RowCopy.copy(from: source.pictureBase, stride: source.stride, at: 0, 0, to: buffer.pixels, stride: buffer.stride, at: 0, 0,
                     width: source.width, height: source.height)
        entries[key] = Entry(source: source, buffer: buffer, lastCommit: commits)
        return buffer
    }

    /// A commit was made: buffers no frame on screen or queued uses any more are freed.
    package func committed() {
        commits += 1
        for (key, entry) in entries where commits - entry.lastCommit > 2 {
            entries[key] = nil
            spares.insert(entry.buffer, at: 0)
        }
        if spares.count > Self.sparesKept { spares.removeLast(spares.count - Self.sparesKept) }
    }

    /// Frees every buffer (the screen is composed, or gone); call only once no plane shows them.
    package func removeAll() {
        entries.removeAll()
        spares.removeAll()
    }

    /// Buffers showing cards, and spares.
    package var count: (cards: Int, spares: Int) { (entries.count, spares.count) }
}
