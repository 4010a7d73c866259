/// Image formats told apart by their first bytes (never by the file name).
package enum ImageFormat: Equatable {
    case jpeg, png, webp
    /// Recognised but not decoded by carouseld; the name goes into the skip message.
    case unsupported(String)
    case unknown

    /// Enough leading bytes for every signature below.
    package static let signatureLength = 16

    package init(signature b: UnsafeRawBufferPointer) {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + bytes.count && bytes.indices.allSatisfy { b[offset + $0] == bytes[$0] }
        }
        let ascii = { (s: String) in Array(s.utf8) }
        if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
        else if starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8) { self = .webp }
        else if starts(ascii("GIF87a")) || starts(ascii("GIF89a")) { self = .unsupported("GIF") }
        else if starts(ascii("BM")) && b.count >= 14 { self = .unsupported("BMP") }
        else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { self = .unsupported("TIFF") }
        else if starts(ascii("ftypavif"), at: 4) { self = .unsupported("AVIF") }
        else if starts(ascii("ftypheic"), at: 4) || starts(ascii("ftypmif1"), at: 4) { self = .unsupported("HEIF") }
        else if starts([0xFF, 0x0A]) || starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { self = .unsupported("JPEG XL") }
        else { self = .unknown }
    }

    package var name: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .webp: return "WebP"
        case .unsupported(let n): return n
        case .unknown: return "unknown"
        }
    }
}

extension ImageFormat {
    /// The format of the file at `path` by its first bytes; `.unknown` when it cannot be read.
    package init(path: String) {
        guard let head = try? ImageFile.read(path, limit: Self.signatureLength) else { self = .unknown; return }
        self = head.withUnsafeBytes { ImageFormat(signature: $0) }
    }

    /// A preview is cheaper to decode than the card only where the decoder reads the picture at
    /// a smaller scale: a JPEG's preview is read at 1/8 (libjpeg's DCT scaling). A PNG or WebP
    /// is decoded whole either way, so a preview ahead of its card would only delay the card.
    /// An unreadable file keeps its preview job (which then fails and names the problem).
    package var hasCheapPreview: Bool {
        switch self {
        case .png, .webp: return false
        case .jpeg, .unsupported, .unknown: return true
        }
    }
}
