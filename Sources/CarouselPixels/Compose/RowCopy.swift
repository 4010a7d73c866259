import Glibc

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
