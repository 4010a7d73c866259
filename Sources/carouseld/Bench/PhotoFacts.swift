import CarouselConfig
import CarouselPixels
import Glibc

/// What `bench --photos` says about a file before decoding it: its format, stored size and,
/// for a JPEG, whether it is progressive (SOF2), which decides what libjpeg must hold.
struct PhotoFacts: Equatable {
    var format: String
    var width: Int
    var height: Int
    /// The size it shows at (EXIF orientation applied): what the card's fit scale is from.
    var upright: (width: Int, height: Int)
    var progressive: Bool
    /// A progressive JPEG's whole-picture coefficient arrays (what libjpeg must hold); else nil.
    var coefficientBytes: Int?

    static func == (a: PhotoFacts, b: PhotoFacts) -> Bool {
        (a.format, a.width, a.height, a.progressive) == (b.format, b.width, b.height, b.progressive)
    }

    init(format: String, width: Int, height: Int, upright: (width: Int, height: Int), progressive: Bool,
         coefficientBytes: Int? = nil) {
        self.format = format; self.width = width; self.height = height; self.upright = upright
        self.progressive = progressive; self.coefficientBytes = coefficientBytes
    }

    /// nil for a file carouseld does not show (not a picture, over the caps).
    init?(path: String) {
        guard let header = try? ImageDecoder.probe(path: path, maxPixels: ShellSettings().media.maxImagePixels),
              let prefix = Self.prefix(path, bytes: ImageDecoder.probeBytes) else { return nil }
        width = header.width; height = header.height; upright = header.upright
        switch prefix.withUnsafeBytes({ ImageFormat(signature: $0) }) {
        case .jpeg: format = "JPEG"
        case .png: format = "PNG"
        case .webp: format = "WebP"
        default: return nil
        }
        let frame = format == "JPEG" ? JPEGFrame(prefix) : nil
        progressive = frame?.progressive == true
        coefficientBytes = progressive ? frame?.coefficientBytes : nil
    }

    /// The first start-of-frame marker; nil when it lies beyond `bytes`.
    static func startOfFrame(_ bytes: [UInt8]) -> UInt8? {
        JPEGFrame.offset(bytes).map { bytes[$0 + 1] }
    }

    private static func prefix(_ path: String, bytes: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: bytes)
        let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, bytes, 0) }
        return got > 0 ? Array(buffer.prefix(got)) : nil
    }
}
