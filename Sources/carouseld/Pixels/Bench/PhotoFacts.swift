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

    static func == (a: PhotoFacts, b: PhotoFacts) -> Bool {
        (a.format, a.width, a.height, a.progressive) == (b.format, b.width, b.height, b.progressive)
    }

    /// nil for a file carouseld does not show (not a picture, over the caps).
    init?(path: String) {
        guard let header = try? ImageDecoder.probe(path: path, maxPixels: ShellSettings().maxImagePixels),
              let prefix = Self.prefix(path, bytes: ImageDecoder.probeBytes) else { return nil }
        width = header.width; height = header.height; upright = header.upright
        switch prefix.withUnsafeBytes({ ImageFormat(signature: $0) }) {
        case .jpeg: format = "JPEG"
        case .png: format = "PNG"
        case .webp: format = "WebP"
        default: return nil
        }
        progressive = format == "JPEG" && Self.startOfFrame(prefix) == 0xC2
    }

    /// The first start-of-frame marker (0xC0...0xCF but DHT 0xC4, JPG 0xC8, DAC 0xCC), walking
    /// the segments from SOI; nil when it lies beyond `bytes`.
    static func startOfFrame(_ bytes: [UInt8]) -> UInt8? {
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }   // fill bytes
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) { return marker }
            if marker == 0xDA { return nil }         // scan data before any frame header
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return nil
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
