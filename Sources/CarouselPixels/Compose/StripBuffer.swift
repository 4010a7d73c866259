import CarouselCore
import CImaging

/// The compositor's private scratch rows. Whatever must blend (faded cards, overlapping cards,
/// the dots) is drawn here band by band and the band's rows are then copied into the target,
/// so the target is only ever written. A band is about `bytes`, so it stays in the L2 cache,
/// whatever the shape of the area: the memory is kept by size between frames and each band is a
/// pixman image over it.
package final class StripBuffer {
    package static let bytes = 256 * 1024
    private var memory: AnonymousMapping?

    /// Bytes held (for tests).
    package var byteCount: Int { memory?.byteCount ?? 0 }

    /// Runs `body` for horizontal bands of `bounds`, each drawn into the strip (strip (0, 0) is
    /// the band's top-left), then copies the band's rows into `target`.
    package func bands(of bounds: IntRect, into target: PixelBuffer, _ body: (IntRect, PixelImage) -> Void) {
        let rows = min(bounds.height, max(8, Self.bytes / (bounds.width * 4)))
        guard let strip = image(width: bounds.width, height: rows) else {
            Log.error("out of memory for a \(bounds.width)x\(rows) strip buffer")
            return
        }
        for top in stride(from: bounds.y, to: bounds.maxY, by: rows) {
            let band = IntRect(x: bounds.x, y: top, width: bounds.width, height: min(rows, bounds.maxY - top))
            body(band, strip)
            RowCopy.copy(from: strip.base, stride: strip.stride, at: 0, 0, to: target.base, stride: target.stride,
                         at: band.x, band.y, width: band.width, height: band.height)
        }
    }

    /// A `width` × `height` image over the kept memory, grown only for a wider band.
    private func image(width: Int, height: Int) -> PixelImage? {
        if let memory, let strip = PixelImage(width: width, height: height, in: memory) { return strip }
        memory = AnonymousMapping(byteCount: max(Self.bytes, width * height * 4))
        return memory.flatMap { PixelImage(width: width, height: height, in: $0) }
    }
}
