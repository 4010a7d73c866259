import CarouselCore
import CImaging
import Glibc

/// A frame on screen written as a picture file into a descriptor (`ctl screenshot`: the client
/// opened the file and passed it, so the daemon writes with the client's rights, not its own).
package enum FrameSnapshot {
    package enum Format: String, Sendable {
        case png, jpg
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Writes `frame` (XRGB8888) scaled by `scale` (1 = as on screen) as `format` into `fd`.
    /// Returns the written picture's size.
    package static func write(_ frame: PixelBuffer, format: Format, scale: Double, to fd: Int32) throws(Failure) -> (Int, Int) {
        let width = max(1, Int((Double(frame.width) * scale).rounded()))
        let height = max(1, Int((Double(frame.height) * scale).rounded()))
        guard let copy = PixelImage(width: width, height: height),
              let source = pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(frame.width), Int32(frame.height),
                                                    frame.base.assumingMemoryBound(to: UInt32.self), Int32(frame.stride))
        else { throw Failure(description: "out of memory for a \(width)x\(height) picture") }
        defer { pixman_image_unref(source) }
        if width != frame.width || height != frame.height {
            // Destination pixels sample the source at (x, y) / scale, filtered.
            var transform = Affine.scale(Double(frame.width) / Double(width), Double(frame.height) / Double(height)).pixmanTransform
            pixman_image_set_transform(source, &transform)
            pixman_image_set_filter(source, PIXMAN_FILTER_GOOD, nil, 0)
        }
        pixman_image_composite32(PIXMAN_OP_SRC, source, nil, copy.pixman, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
        switch format {
        case .png:
            let buffer = PixelBuffer(base: copy.base, width: width, height: height, stride: copy.stride)
            do { try PNGWriter.write(buffer, toDescriptor: fd) } catch { throw Failure(description: error.reason) }
        case .jpg:
            guard let bytes = JPEGEncoder.encode(copy, quality: 92) else { throw Failure(description: "JPEG encoding failed") }
            try writeAll(bytes, to: fd)
        }
        return (width, height)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Failure(description: "write: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }
}
