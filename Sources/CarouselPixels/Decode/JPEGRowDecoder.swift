import CarouselCore
import CJPEGStream

/// A JPEG decoded by libjpeg a band of rows at a time, top to bottom, at a DCT scale, into
/// B,G,R,A rows (pixman's a8r8g8b8, alpha 0xFF). The same library and settings as
/// libturbojpeg's whole-picture decode, so the rows are the same pixels; but only the rows the
/// card maker needs at once are ever held, and rows outside a cover crop are never converted.
package final class JPEGRowDecoder: RowSource {
    /// Size in stored orientation, after DCT scaling.
    package let width: Int
    package let height: Int
    package let orientation: ExifOrientation
    /// JPEG has no alpha.
    package let hasAlpha = false
    private let decoder: OpaquePointer
    /// The open file, which libjpeg reads (by pread, 64 KB at a time) until the decoder is closed.
    private let file: ImageFile.Opened

    /// Starts decoding at the smallest DCT scale giving `neededScale`; nil when libjpeg cannot
    /// give this JPEG's colours as BGRA: decode it whole with libturbojpeg. (CMYK and YCCK
    /// are converted in the shim.) A `draft` of a progressive file is made from its first
    /// scans only (`CardSpec.draft`).
    package static func open(_ file: ImageFile.Opened, header: ImageHeader, neededScale: Double,
                     draft: Bool = false) throws(ImageError) -> JPEGRowDecoder? {
        let scale = JPEGScale.choose(width: header.width, height: header.height, needed: neededScale,
                                     available: JPEGDecoder.availableScales)
        var message = [CChar](repeating: 0, count: 200)
        var unsupported: Int32 = 0
        // At most the size checked at open (ImageFile.maxFileBytes), however the file changes.
        let decoder = cjs_open(file.descriptor, file.size, Int32(scale.num), Int32(scale.denom), draft ? 1 : 0,
                               &message, message.count, &unsupported)
        guard let decoder else {
            if unsupported != 0 { return nil }
            throw JPEGDecoder.classify(message.withUnsafeBytes { string(fromCArray: $0) }, file)
        }
        return JPEGRowDecoder(decoder: decoder, file: file, orientation: header.orientation)
    }

    private init(decoder: OpaquePointer, file: ImageFile.Opened, orientation: ExifOrientation) {
        self.decoder = decoder; self.file = file; self.orientation = orientation
        width = Int(cjs_output_width(decoder)); height = Int(cjs_output_height(decoder))
    }

    deinit { cjs_close(decoder) }

    /// The next row to be decoded.
    package var nextRow: Int { Int(cjs_output_row(decoder)) }

    /// Decodes the next `rows` rows into `destination`, `pitch` bytes apart.
    package func read(rows: Int, into destination: UnsafeMutableRawPointer, pitch: Int) throws(ImageError) {
        guard rows > 0 else { return }
        try check(cjs_read_rows(decoder, destination.assumingMemoryBound(to: UInt8.self), pitch, Int32(rows)))
    }

    /// Passes over the next `rows` rows without converting them (they are still decoded, so
    /// damage there is found).
    package func skip(rows: Int) throws(ImageError) {
        guard rows > 0 else { return }
        try check(cjs_skip_rows(decoder, Int32(rows)))
    }

    /// Passes over the rest of the picture and its end, as a whole decode would.
    package func finish() throws(ImageError) { try check(cjs_finish(decoder)) }

    private func check(_ result: Int32) throws(ImageError) {
        if result != 0 { throw JPEGDecoder.classify(String(cString: cjs_error(decoder)), file) }
    }
}
