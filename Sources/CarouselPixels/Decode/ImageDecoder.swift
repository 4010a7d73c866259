import CarouselCore
/// From a file path to a pre-scaled card, or a named reason to skip the file. This is the
/// only decode path: the image store's worker, `render` and the tests all come through here.
package enum ImageDecoder {
    /// How much of a file is read first, for its header; JPEG headers after big EXIF/ICC blocks
    /// fall back to the whole file (within `ImageFile.maxFileBytes`).
    package static let probeBytes = 256 * 1024

    /// Reads only the header (format, size, orientation) and applies the pixel and file-size caps.
    package static func probe(path: String, maxPixels: Int) throws(ImageError) -> ImageHeader {
        try checkedHeader(ImageFile.Opened(path), maxPixels: maxPixels).header
    }

    /// The header from the file's first `probeBytes`: format by magic bytes, size, the pixel
    /// cap, then the file-size cap, all before the rest of the file is read. Also returns the
    /// bytes read, which are the whole file when it fits in the prefix.
    private static func checkedHeader(_ file: ImageFile.Opened,
                                      maxPixels: Int) throws(ImageError) -> (header: ImageHeader, read: FileBytes) {
        let prefix = try file.read(limit: probeBytes)
        do {
            let header = try header(of: prefix, path: file.path, maxPixels: maxPixels)
            try file.checkSize()
            return (header, prefix)
        } catch {
            // Only a header cut off by the prefix (a JPEG's frame header behind big EXIF or ICC
            // blocks) deserves a second, whole-file read, and only within the size cap. A file
            // whose first bytes are no picture we decode, or whose header is over the pixel cap,
            // is never read further.
            switch error {
            case .notAnImage, .unsupported, .tooLarge, .fileTooLarge: throw error
            default: break
            }
            guard prefix.count == probeBytes, file.size > probeBytes else { throw error }
            try file.checkSize()
            let whole = try file.read()
            return (try header(of: whole, path: file.path, maxPixels: maxPixels), whole)
        }
    }

    package static func makeCard(path: String, spec: CardSpec) throws(ImageError) -> Card {
        DecodeMemory.prepare()
        var pixels = 0
        // Runs once the decoder (and so every codec buffer) is gone: makeCard(from:) returned.
        defer { DecodeMemory.release(afterPixels: pixels) }
        return try makeCard(from: try decode(path: path, spec: spec, pixels: &pixels), spec: spec)
    }

    private static func makeCard(from decoded: consuming Decoded, spec: CardSpec) throws(ImageError) -> Card {
        switch consume decoded {
        case .whole(let decoded): return try CardScaler.makeCard(from: decoded, spec: spec)
        case .rows(let rows): return try CardScaler.makeCard(from: rows, spec: spec)
        }
    }

    /// A picture ready for the card maker.
    package enum Decoded {
        /// Decoded whole (WebP, at about the card's size); the file's bytes are already released.
        case whole(DecodedImage)
        /// A JPEG or PNG whose rows are decoded while the card is made (it holds the open file).
        case rows(any RowSource)
    }

    /// Reads a file and decodes it for a card spec, as far as the card maker needs up front.
    package static func decode(path: String, spec: CardSpec) throws(ImageError) -> Decoded {
        var pixels = 0
        return try decode(path: path, spec: spec, pixels: &pixels)
    }

    /// The same, also telling the caller the picture's full size in pixels once its header is read.
    private static func decode(path: String, spec: CardSpec, pixels: inout Int) throws(ImageError) -> Decoded {
        let file = try ImageFile.Opened(path)
        let (header, read) = try checkedHeader(file, maxPixels: spec.maxImagePixels)
        pixels = header.width * header.height
        let upright = header.upright
        let needed = FitPlacement(imageWidth: upright.width, imageHeight: upright.height,
                                  cardWidth: spec.width, cardHeight: spec.height, fit: spec.fit).scale
        // The header is checked; only now is the rest of the file (at most maxFileBytes) read.
        // JPEG and PNG read it themselves from the descriptor, a chunk at a time, so the header
        // bytes are let go here; WebP (libwebp decodes from one buffer) is read whole.
        let format = try read.withUnsafeBytes { (raw) throws(ImageError) in try decodableFormat(raw, path: path) }
        if format == .webp {
            return .whole(try wholeFile(file, read).withUnsafeBytes { (raw) throws(ImageError) in
                try WebPDecoder.decode(raw, header: header, spec: spec)
            })
        }
        // Not held while a progressive JPEG's scans are read in (the decode's peak).
        _ = consume read
        if format == .png { return .rows(try PNGRowDecoder(file, orientation: header.orientation)) }
        if let rows = try JPEGRowDecoder.open(file, header: header, neededScale: needed, draft: spec.draft) { return .rows(rows) }
        return .whole(try file.read().withUnsafeBytes { (raw) throws(ImageError) in
            try JPEGDecoder.decode(raw, header: header, neededScale: needed)
        })
    }

    /// The whole file: what the header check read, when that was all of it.
    private static func wholeFile(_ file: ImageFile.Opened, _ read: FileBytes) throws(ImageError) -> FileBytes {
        read.count < probeBytes || read.count >= file.size ? read : try file.read()
    }

    private static func header(of bytes: FileBytes, path: String, maxPixels: Int) throws(ImageError) -> ImageHeader {
        let header = try bytes.withUnsafeBytes { (raw) throws(ImageError) -> ImageHeader in
            switch try decodableFormat(raw, path: path) {
            case .jpeg: return try JPEGDecoder.header(raw)
            case .png: return try PNGDecoder.header(raw)
            case .webp: return try WebPDecoder.header(raw)
            }
        }
        try header.check(maxPixels: maxPixels)
        return header
    }

    private enum Decodable { case jpeg, png, webp }

    /// The format from the first bytes; anything else is a skip reason.
    private static func decodableFormat(_ raw: UnsafeRawBufferPointer, path: String) throws(ImageError) -> Decodable {
        switch ImageFormat(signature: raw) {
        case .jpeg: return .jpeg
        case .png: return .png
        case .webp: return .webp
        case .unsupported(let name): throw .unsupported(name)
        case .unknown: throw .notAnImage(fileExtension: ImageFile.fileExtension(path))
        }
    }
}

/// A picture decoded top to bottom a band of rows at a time, into B,G,R,A rows (pixman's
/// a8r8g8b8), for the card maker's band resampler (CardScaler). JPEG and PNG both stream this
/// way, so only the rows a card band needs are held, never the whole picture.
package protocol RowSource: AnyObject {
    /// Size in stored orientation, after any decode-time scaling.
    var width: Int { get }
    var height: Int { get }
    var orientation: ExifOrientation { get }
    /// Rows carry premultiplied alpha that must be composited over the background.
    var hasAlpha: Bool { get }
    /// The next row to be decoded.
    var nextRow: Int { get }
    /// Decodes the next `rows` rows into `destination`, `pitch` bytes apart.
    func read(rows: Int, into destination: UnsafeMutableRawPointer, pitch: Int) throws(ImageError)
    /// Passes over the next `rows` rows (still decoded, so damage there is found).
    func skip(rows: Int) throws(ImageError)
    /// Passes over the rest of the picture and its end, as a whole decode would.
    func finish() throws(ImageError)
}

/// A picture's size as its header declares it, known before any pixel memory is taken.
package struct ImageHeader: Equatable {
    package var width: Int
    package var height: Int
    package var orientation: ExifOrientation = .up

    /// The size the picture shows at, after EXIF orientation.
    package var upright: (width: Int, height: Int) { orientation.orientedSize(width: width, height: height) }

    /// Refuses headers over the pixel cap; called before any decode buffer exists.
    package func check(maxPixels: Int) throws(ImageError) {
        guard width > 0, height > 0 else { throw .corrupt(format: "image", detail: "header declares \(width)x\(height)") }
        if width.multipliedReportingOverflow(by: height).partialValue > maxPixels || width > 65_535 || height > 65_535 {
            throw .tooLarge(width: width, height: height, limit: maxPixels)
        }
    }
}

/// Decoded pixels, still in stored orientation, possibly already shrunk by the decoder.
package struct DecodedImage {
    package var pixels: PixelImage
    package var orientation: ExifOrientation
    /// Premultiplied alpha that must be composited over the background (WebP with alpha).
    package var hasAlpha: Bool
}
