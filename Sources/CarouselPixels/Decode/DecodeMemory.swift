import CImaging

/// Gives a large decode's memory back to the system when the decode ends.
///
/// The codecs (libjpeg's coefficient arrays for a progressive file, libpng's and libwebp's
/// buffers) take their memory from glibc's malloc. glibc serves a block above its mmap
/// threshold with its own mapping, but after such a block is freed it raises the threshold to
/// that size, so the next photo's 29 MB arrays come from the heap and stay resident after the
/// decode. Two steps keep the process small: the threshold is fixed once (a fixed threshold
/// is never raised), and after a decode of a large picture `malloc_trim` returns the heap's
/// free pages.
package enum DecodeMemory {
    /// Blocks of at least this size get a mapping of their own: 1 MB is far above the small
    /// objects a decode makes, well below a photo's row buffers and coefficient arrays.
    package static let mmapThreshold: Int32 = 1 << 20

    /// Pictures of at least this many pixels count as a large decode (a 2-megapixel JPEG's
    /// coefficient arrays are about 6 MB).
    package static let trimFromPixels = 2_000_000

    private static let threshold: Void = { _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold) }()

    /// Before a decode: fixes the mmap threshold (once per process).
    package static func prepare() { threshold }

    /// After a decode whose buffers are all released.
    package static func release(afterPixels pixels: Int) {
        if pixels >= trimFromPixels { _ = malloc_trim(0) }
    }
}
