import CImaging
import Glibc

/// Pixels carouseld owns (decoded pictures, pre-scaled cards, offline frames), wrapped in a
/// pixman image so every drawing step goes through pixman. The memory is an
/// `AnonymousMapping`: a pre-scaled card is megabytes, and freed cards must not stay resident.
package final class PixelImage: @unchecked Sendable {
    package let width: Int
    package let height: Int
    /// Bytes per row, a multiple of 4 (pixman's requirement).
    package let stride: Int
    package let format: pixman_format_code_t
    package let base: UnsafeMutableRawPointer
    /// pixman_image_t* over `base`.
    package let pixman: OpaquePointer
    /// What owns the memory at `base` (an `AnonymousMapping` or a `FileMapping`).
    private let memory: AnyObject

    /// nil when the size is impossible or memory is exhausted (callers report it, never trap).
    package convenience init?(width: Int, height: Int, format: pixman_format_code_t = PIXMAN_x8r8g8b8) {
        guard let bytes = Self.byteCount(width: width, height: height, format: format),
              let memory = AnonymousMapping(byteCount: bytes) else { return nil }
        self.init(width: width, height: height, format: format, in: memory)
    }

    /// An image over the start of `memory` (reused scratch space); nil when it does not fit.
    package convenience init?(width: Int, height: Int, format: pixman_format_code_t = PIXMAN_x8r8g8b8, in memory: AnonymousMapping) {
        guard let bytes = Self.byteCount(width: width, height: height, format: format), bytes <= memory.byteCount
        else { return nil }
        self.init(width: width, height: height, format: format, base: memory.base, owner: memory)
    }

    /// An image over `base`, memory `owner` keeps (a card cache entry's pixels in its file's
    /// mapping); the caller checked that `byteCount` bytes fit there.
    package init?(width: Int, height: Int, format: pixman_format_code_t, base: UnsafeMutableRawPointer, owner: AnyObject) {
        guard let bytes = Self.byteCount(width: width, height: height, format: format),
              let image = pixman_image_create_bits(format, Int32(width), Int32(height), base.assumingMemoryBound(to: UInt32.self),
                                                   Int32(bytes / height))
        else { return nil }
        self.width = width; self.height = height; self.stride = bytes / height; self.format = format
        self.base = base; self.pixman = image; self.memory = owner
    }

    /// Bytes of a `width` × `height` image with rows padded to 4 bytes (pixman's requirement);
    /// nil for impossible sizes.
    package static func byteCount(width: Int, height: Int, format: pixman_format_code_t) -> Int? {
        guard width > 0, height > 0, width <= 65_535, height <= 65_535 else { return nil }
        return ((width * Int(format.rawValue >> 24) / 8 + 3) & ~3) * height
    }

    deinit { pixman_image_unref(pixman) }

    package var byteCount: Int { stride * height }

    /// The pixels as a compositor target (XRGB8888 images only).
    package var buffer: PixelBuffer {
        precondition(format == PIXMAN_x8r8g8b8 || format == PIXMAN_a8r8g8b8, "not a 32-bit image")
        return PixelBuffer(base: base, width: width, height: height, stride: stride)
    }

    /// 0xAARRGGBB (or 0xXXRRGGBB) at (x, y) of a 32-bit image; for tests and checks.
    package func pixel(x: Int, y: Int) -> UInt32 {
        precondition(format.rawValue >> 24 == 32 && (0..<width).contains(x) && (0..<height).contains(y))
        return base.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
    }

    /// Fills the whole image with an opaque colour.
    package func fill(_ colour: UInt32) {
        pixman_fill(base.assumingMemoryBound(to: UInt32.self), Int32(stride / 4), 32, 0, 0,
                    Int32(width), Int32(height), colour | 0xFF00_0000)
    }
}
