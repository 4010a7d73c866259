import CImaging
import Glibc

/// Pixels carouseld owns (decoded pictures, pre-scaled cards, offline frames), wrapped in a
/// pixman image so every drawing step goes through pixman.
///
/// Why mmap and not malloc: a pre-scaled card is megabytes. glibc raises its mmap threshold
/// after the first large free, after which freed cards stay in the heap and RSS only grows;
/// anonymous mappings go back to the kernel on `munmap`, which keeps peak RSS bounded by the
/// cache size. Mappings are also page-aligned, which pixman's SIMD paths like.
final class PixelImage: @unchecked Sendable {
    let width: Int
    let height: Int
    /// Bytes per row, a multiple of 4 (pixman's requirement).
    let stride: Int
    let format: pixman_format_code_t
    let base: UnsafeMutableRawPointer
    /// pixman_image_t* over `base`.
    let pixman: OpaquePointer
    private let mappedBytes: Int

    /// nil when the size is impossible or memory is exhausted (callers report it, never trap).
    init?(width: Int, height: Int, format: pixman_format_code_t = PIXMAN_x8r8g8b8) {
        guard width > 0, height > 0, width <= 65_535, height <= 65_535 else { return nil }
        let bitsPerPixel = Int(format.rawValue >> 24)
        let stride = (width * bitsPerPixel / 8 + 3) & ~3
        let bytes = stride * height
        guard let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              memory != MAP_FAILED else { return nil }
        guard let image = pixman_image_create_bits(format, Int32(width), Int32(height),
                                                   memory.assumingMemoryBound(to: UInt32.self), Int32(stride))
        else { munmap(memory, bytes); return nil }
        self.width = width; self.height = height; self.stride = stride; self.format = format
        self.base = memory; self.pixman = image; self.mappedBytes = bytes
    }

    deinit {
        pixman_image_unref(pixman)
        munmap(base, mappedBytes)
    }

    var byteCount: Int { mappedBytes }

    /// The pixels as a compositor target (XRGB8888 images only).
    var buffer: PixelBuffer {
        precondition(format == PIXMAN_x8r8g8b8 || format == PIXMAN_a8r8g8b8, "not a 32-bit image")
        return PixelBuffer(base: base, width: width, height: height, stride: stride)
    }

    /// 0xAARRGGBB (or 0xXXRRGGBB) at (x, y) of a 32-bit image; for tests and checks.
    func pixel(x: Int, y: Int) -> UInt32 {
        precondition(format.rawValue >> 24 == 32 && (0..<width).contains(x) && (0..<height).contains(y))
        return base.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
    }

    /// Fills the whole image with an opaque colour.
    func fill(_ colour: UInt32) {
        pixman_fill(base.assumingMemoryBound(to: UInt32.self), Int32(stride / 4), 32, 0, 0,
                    Int32(width), Int32(height), colour | 0xFF00_0000)
    }
}
