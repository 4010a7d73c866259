import CarouselCore
/// Why a picture was skipped. Each case prints as the reason half of one log line:
/// "skipping /srv/pics/a.jpg: file is empty (0 bytes)".
package enum ImageError: Error, Equatable, CustomStringConvertible {
    case missing
    case unreadable(String)
    case empty
    /// The first bytes match no image format we know; `fileExtension` names what the name claimed.
    case notAnImage(fileExtension: String)
    /// A real image format carouseld does not decode (GIF, BMP, TIFF, HEIF, AVIF, ...).
    case unsupported(String)
    case tooLarge(width: Int, height: Int, limit: Int)
    case truncated(format: String, detail: String)
    case corrupt(format: String, detail: String)
    case outOfMemory(width: Int, height: Int)
    /// The file is larger than `ImageFile.maxFileBytes`; refused before it is read whole.
    case fileTooLarge(bytes: Int, limit: Int)

    package var description: String {
        switch self {
        case .missing: return "file not found"
        case .unreadable(let why): return "cannot read file (\(why))"
        case .empty: return "file is empty (0 bytes)"
        case .notAnImage(let ext):
            let claim = ext.isEmpty ? "" : " despite its .\(ext) extension"
            return "not a JPEG, PNG or WebP image\(claim) (unrecognised content)"
        case .unsupported(let format): return "unsupported image format \(format); carouseld shows JPEG, PNG and WebP"
        case .tooLarge(let w, let h, let limit):
            return "header declares \(w)x\(h) = \(w * h) pixels, more than max_image_pixels \(limit); refused before decoding"
        case .truncated(let format, let detail): return "truncated \(format) data (\(detail))"
        case .corrupt(let format, let detail): return "corrupt \(format) data (\(detail))"
        case .outOfMemory(let w, let h): return "out of memory for a \(w)x\(h) picture"
        case .fileTooLarge(let bytes, let limit):
            return "file is \(bytes) bytes, more than the \(limit / (1 << 20)) MB a picture may have; refused before reading it"
        }
    }
}
