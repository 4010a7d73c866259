import CarouselCore
import CPNGStream

/// A PNG decoded by libpng a row at a time (CPNGStream) into premultiplied B,G,R,A rows, for
/// the band resampler: a non-interlaced PNG never has a full-size buffer. An interlaced one is
/// decoded whole inside the shim first (within max_image_pixels, checked on its header).
package final class PNGRowDecoder: RowSource {
    package let width: Int
    package let height: Int
    package let orientation: ExifOrientation
    package let hasAlpha: Bool
    private let decoder: OpaquePointer
    /// The open file, which libpng reads (by pread, 64 KB at a time) until the decoder is closed.
    private let file: ImageFile.Opened

    package init(_ file: ImageFile.Opened, orientation: ExifOrientation) throws(ImageError) {
        var message = [CChar](repeating: 0, count: 256)
        // At most the size checked at open (ImageFile.maxFileBytes), however the file changes.
        let decoder = cps_open(file.descriptor, file.size, &message, message.count)
        guard let decoder else { throw PNGDecoder.classify(message.withUnsafeBytes { string(fromCArray: $0) }) }
        self.decoder = decoder; self.file = file; self.orientation = orientation
        width = Int(cps_width(decoder)); height = Int(cps_height(decoder)); hasAlpha = cps_has_alpha(decoder) != 0
    }

    deinit { cps_close(decoder) }

    package var nextRow: Int { Int(cps_output_row(decoder)) }

    package func read(rows: Int, into destination: UnsafeMutableRawPointer, pitch: Int) throws(ImageError) {
        guard rows > 0 else { return }
        try check(cps_read_rows(decoder, destination.assumingMemoryBound(to: UInt8.self), pitch, Int32(rows)))
    }

    package func skip(rows: Int) throws(ImageError) {
        guard rows > 0 else { return }
        try check(cps_skip_rows(decoder, Int32(rows)))
    }

    package func finish() throws(ImageError) { try check(cps_finish(decoder)) }

    private func check(_ result: Int32) throws(ImageError) {
        if result != 0 { throw PNGDecoder.classify(String(cString: cps_error(decoder))) }
    }
}
