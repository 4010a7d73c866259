/// Copies 32-bit pixels through an exact quarter turn or flip (an EXIF orientation): each
/// target pixel takes one source pixel, nothing is filtered.
///
/// Why not pixman: it has fast paths for 90° and 270° rotations only, not for flips or the
/// transposes of EXIF orientations 5 and 7; through its general path a 1536x864 card took
/// about 5 ms, as long as decoding a portrait photo. This loop reads a source column per
/// target row at worst, which stays in the cache for card-sized pictures.
package struct PixelTurn {
    /// Target pixel (x, y) takes the source pixel under `map(x + ½, y + ½)`. The linear part
    /// must be a signed permutation (0 and ±1).
    package var map: Affine

    package init(_ map: Affine) {
        precondition([map.a, map.b, map.c, map.d].allSatisfy { $0 == 0 || abs($0) == 1 }, "not a quarter turn or flip: \(map)")
        self.map = map
    }

    /// Fills `rect` of the target from the source, both 32-bit pixels `stride` bytes a row;
    /// `map` must keep `rect` inside the source's `width` × `height`.
    package func copy(from source: UnsafeRawPointer, stride sourceStride: Int, width: Int, height: Int,
              to target: UnsafeMutableRawPointer, stride targetStride: Int, rect: IntRect) {
        guard !rect.isEmpty else { return }
        // The source pixel under a target pixel; the map keeps axes, so the rect's corners bound the rest.
        func sourcePixel(_ x: Int, _ y: Int) -> (x: Int, y: Int) {
            let p = map.apply(Double(x) + 0.5, Double(y) + 0.5)
            return (Int(p.x.rounded(.down)), Int(p.y.rounded(.down)))
        }
        for (x, y) in [(rect.x, rect.y), (rect.maxX - 1, rect.maxY - 1)] {
            let p = sourcePixel(x, y)
            precondition((0..<width).contains(p.x) && (0..<height).contains(p.y), "outside the source")
        }
        let step = Int(map.a) * 4 + Int(map.b) * sourceStride // source bytes per target pixel along a row
        let rowStep = Int(map.c) * 4 + Int(map.d) * sourceStride // and per target row
        let first = sourcePixel(rect.x, rect.y)
        var rowStart = source + first.y * sourceStride + first.x * 4
        for y in rect.y..<rect.maxY {
            var from = rowStart
            let to = (target + y * targetStride + rect.x * 4).assumingMemoryBound(to: UInt32.self)
            for x in 0..<rect.width {
                to[x] = from.load(as: UInt32.self)
                from += step
            }
            rowStart += rowStep
        }
    }
}
