import Glibc
/// A cache-resident copy of the part of a card that one strip band samples.
///
/// Why: sampling a scaled card, nearest or bilinear, reads it a pixel at a time, and when the
/// card is cut by the screen edge (every fast frame, every thin side card) each row is a short
/// stretch of memory that is not in cache and that the hardware prefetcher does not follow. A
/// memcpy of those rows first (wide loads it does follow), then sampling the copy from cache,
/// made those frames about a quarter faster. Only for the strip buffer: straight into the
/// target the extra pass costs more than it saves.
package final class SourceStage {
    private var memory: AnonymousMapping?

    /// Pixels of `image` in `region` (clipped to the image) copied into the stage, and where
    /// the copy's (0, 0) lies in `image`; nil when nothing is left or memory is exhausted.
    package func copy(of image: PixelImage, region: IntRect) -> (image: PixelImage, at: (x: Int, y: Int))? {
        let area = region.intersection(IntRect(x: 0, y: 0, width: image.width, height: image.height))
        guard !area.isEmpty, let bytes = PixelImage.byteCount(width: area.width, height: area.height, format: image.format)
        else { return nil }
        if (memory?.byteCount ?? 0) < bytes { memory = AnonymousMapping(byteCount: max(bytes, StripBuffer.bytes * 2)) }
        guard let memory, let copy = PixelImage(width: area.width, height: area.height, format: image.format, in: memory)
        else { return nil }
        RowCopy.copy(from: image.base, stride: image.stride, at: area.x, area.y, to: copy.base, stride: copy.stride, at: 0, 0,
                     width: area.width, height: area.height)
        return (copy, (area.x, area.y))
    }
}

/// Copies a rectangle of 32-bit pixels a row at a time with libc's memcpy: translated cards into
/// the target, strip bands into the target.
///
/// Why not pixman_blt: glibc's memcpy picks the widest copy the CPU has (AVX-512 on the build
/// machine, NEON on ARM boards) and copied the benchmark's card rows about 1.5x as fast as
/// pixman_blt's SSE2 loop (translate-only frames: 0.9x a frame-sized memcpy instead of 1.3-1.5x).
package enum RowCopy {
    /// `width` × `height` pixels from (sourceX, sourceY) of `source` to (x, y) of `destination`.
    package static func copy(from source: UnsafeRawPointer, stride sourceStride: Int, at sourceX: Int, _ sourceY: Int,
                     to destination: UnsafeMutableRawPointer, stride destinationStride: Int, at x: Int, _ y: Int,
                     width: Int, height: Int) {
        guard width > 0, height > 0 else { return }
        var from = source + sourceY * sourceStride + sourceX * 4
        var to = destination + y * destinationStride + x * 4
        for _ in 0..<height {
            memcpy(to, from, width * 4)
            from += sourceStride
            to += destinationStride
        }
    }
}
