import CarouselCore
import CImaging
import Glibc

/// Writes frames as PNG with libpng's simplified API (render output, test goldens).
package enum PNGWriter {
    package struct Failure: Error, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String { "cannot write \(path): \(reason)" }
        package init(path: String, reason: String) { self.path = path; self.reason = reason }
    }

    /// Saves an XRGB8888 buffer as an opaque 8-bit RGB PNG. The unused X byte is dropped by a
    /// pixman conversion to 24-bit (libpng's simplified API has no "ignore this byte" format).
    /// Written fast (no filter, light compression): render and replay write frames by the
    /// hundred, and the tests read them back by the hundred; each file is larger.
    package static func write(_ buffer: PixelBuffer, to path: String) throws(Failure) {
        try write(buffer, named: path, flags: PNG_IMAGE_FLAG_FAST) { image, pixels, stride in
            png_image_write_to_file(&image, path, 0, pixels, stride, nil)
        }
    }

    /// The same into an open descriptor (which stays open).
    package static func write(_ buffer: PixelBuffer, toDescriptor fd: Int32) throws(Failure) {
        guard let file = fdopen(dup(fd), "wb") else { throw Failure(path: "fd \(fd)", reason: String(cString: strerror(errno))) }
        defer { fclose(file) }
        try write(buffer, named: "fd \(fd)", flags: 0) { image, pixels, stride in png_image_write_to_stdio(&image, file, 0, pixels, stride, nil) }
    }

    private static func write(_ buffer: PixelBuffer, named name: String, flags: Int32,
                              _ encode: (inout png_image, UnsafeRawPointer, Int32) -> Int32) throws(Failure) {
        guard let packed = PixelImage(width: buffer.width, height: buffer.height, format: PIXMAN_r8g8b8),
              let source = pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(buffer.width), Int32(buffer.height),
                                                    buffer.base.assumingMemoryBound(to: UInt32.self), Int32(buffer.stride))
        else { throw Failure(path: name, reason: "out of memory") }
        pixman_image_composite32(PIXMAN_OP_SRC, source, nil, packed.pixman, 0, 0, 0, 0, 0, 0,
                                 Int32(buffer.width), Int32(buffer.height))
        pixman_image_unref(source)
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(buffer.width)
        image.height = UInt32(buffer.height)
        image.format = UInt32(PNG_FORMAT_BGR) // r8g8b8 is B,G,R in memory on little-endian machines
        image.flags = UInt32(flags)
        if encode(&image, packed.base, Int32(packed.stride)) == 0 {
            let reason = withUnsafeBytes(of: &image.message) { string(fromCArray: $0) }
            png_image_free(&image)
            throw Failure(path: name, reason: reason)
        }
    }
}
