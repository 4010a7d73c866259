/// Copies 32-bit pixels through an exact quarter turn or flip (an EXIF orientation): each
/// target pixel takes one source pixel, nothing is filtered.
///
/// Why not pixman: it has fast paths for 90° and 270° rotations only, not for flips or the
/// transposes of EXIF orientations 5 and 7; through its general path a 1536x864 card took
/// about 5 ms, as long as decoding a portrait photo. This loop reads a source column per
/// target row at worst, which stays in the cache for card-sized pictures.
struct PixelTurn {
    /// Target pixel (x, y) takes the source pixel under `map(x + ½, y + ½)`. The linear part
    /// must be a signed permutation (0 and ±1).
    var map: Affine

    init(_ map: Affine) {
        precondition([map.a, map.b, map.c, map.d].allSatisfy { $0 == 0 || abs($0) == 1 }, "not a quarter turn or flip: \(map)")
        self.map = map
    }

    /// Fills `rect` of the target from the source, both 32-bit pixels `stride` bytes a row;
    /// `map` must keep `rect` inside the source's `width` × `height`.
    func copy(from source: UnsafeRawPointer, stride sourceStride: Int, width: Int, height: Int,
              to target: UnsafeMutableRawPointer, stride targetStride: Int, rect: IntRect) {
        guard !rect.isEmpty else { return }
        let step = Int(map.a) * 4 + Int(map.b) * sourceStride // source bytes per target pixel along a row
        for y in rect.y..<rect.maxY {
            let first = map.apply(Double(rect.x) + 0.5, Double(y) + 0.5)
            let last = map.apply(Double(rect.maxX) - 0.5, Double(y) + 0.5)
            let xs = [first.x, last.x].map { Int($0.rounded(.down)) }, ys = [first.y, last.y].map { Int($0.rounded(.down)) }
            precondition(xs.allSatisfy((0..<width).contains) && ys.allSatisfy((0..<height).contains), "outside the source")
            var from = source + ys[0] * sourceStride + xs[0] * 4
            let to = (target + y * targetStride + rect.x * 4).assumingMemoryBound(to: UInt32.self)
            for x in 0..<rect.width {
                to[x] = from.load(as: UInt32.self)
                from += step
            }
        }
    }
}
