/// From a file path to a pre-scaled card, or a named reason to skip the file. This is the
/// only decode path: the image store's worker, `render` and the tests all come through here.
enum ImageDecoder {
    /// How much of a file a header probe reads; JPEG headers after big EXIF/ICC blocks fall
    /// back to the whole file.
    static let probeBytes = 256 * 1024

    /// Reads only the header (format, size, orientation) and applies the pixel cap.
    static func probe(path: String, maxPixels: Int) throws(ImageError) -> ImageHeader {
        let prefix = try ImageFile.read(path, limit: probeBytes)
        do {
            return try header(of: prefix, path: path, maxPixels: maxPixels)
        } catch {
            // Only a header cut off by the prefix deserves a second, whole-file read.
            if case .tooLarge = error { throw error }
            guard prefix.count == probeBytes else { throw error }
            return try header(of: ImageFile.read(path), path: path, maxPixels: maxPixels)
        }
    }

    static func makeCard(path: String, spec: CardSpec) throws(ImageError) -> Card {
        switch try decode(path: path, spec: spec) {
        case .whole(let decoded): return try CardScaler.makeCard(from: decoded, spec: spec)
        case .rows(let rows): return try CardScaler.makeCard(from: rows, spec: spec)
        }
    }

    /// A picture ready for the card maker.
    enum Decoded {
        /// Decoded whole (PNG, WebP, CMYK JPEG); the file's bytes are already released.
        case whole(DecodedImage)
        /// A JPEG whose rows are decoded while the card is made (it holds the file's bytes).
        case rows(JPEGRowDecoder)
    }

    /// Reads a file and decodes it for a card spec, as far as the card maker needs up front.
    static func decode(path: String, spec: CardSpec) throws(ImageError) -> Decoded {
        let bytes = try ImageFile.read(path)
        let header = try header(of: bytes, path: path, maxPixels: spec.maxImagePixels)
        return try bytes.withUnsafeBytes { (raw) throws(ImageError) -> Decoded in
            switch try decodableFormat(raw, path: path) {
            case .jpeg:
                let upright = header.upright
                let needed = FitPlacement(imageWidth: upright.width, imageHeight: upright.height,
                                          cardWidth: spec.width, cardHeight: spec.height, fit: spec.fit).scale
                if let rows = try JPEGRowDecoder.open(bytes, header: header, neededScale: needed) { return .rows(rows) }
                return .whole(try JPEGDecoder.decode(raw, header: header, neededScale: needed))
            case .png: return .whole(try PNGDecoder.decode(raw, background: spec.background))
            case .webp: return .whole(try WebPDecoder.decode(raw))
            }
        }
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
