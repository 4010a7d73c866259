/// A JPEG's frame header (SOFn) as far as memory goes: its size and each component's sampling
/// factors. For a progressive JPEG libjpeg must keep every DCT coefficient of the whole picture
/// until the last scan, whatever the output scale: 64 coefficients of 2 bytes per 8x8 block of
/// each component, after subsampling. That array is the inherent cost the bench compares with.
struct JPEGFrame: Equatable {
    struct Component: Equatable { var horizontal: Int, vertical: Int }
    var marker: UInt8
    var width: Int, height: Int
    var components: [Component]

    var progressive: Bool { marker == 0xC2 }

    /// The frame header of a JPEG whose first bytes are `bytes`; nil when it is not among them.
    init?(_ bytes: [UInt8]) {
        guard let at = Self.offset(bytes), at + 10 <= bytes.count else { return nil }
        marker = bytes[at + 1]
        height = Int(bytes[at + 5]) << 8 | Int(bytes[at + 6])
        width = Int(bytes[at + 7]) << 8 | Int(bytes[at + 8])
        let count = Int(bytes[at + 9])
        guard count > 0, at + 10 + 3 * count <= bytes.count else { return nil }
        components = (0..<count).map { index in
            let factors = bytes[at + 10 + 3 * index + 1]
            return Component(horizontal: max(1, Int(factors >> 4)), vertical: max(1, Int(factors & 0x0F)))
        }
    }

    /// Bytes of libjpeg's whole-picture coefficient arrays (jdcoefct.c: blocks per component
    /// rounded up to its sampling factors, 128 bytes a block).
    var coefficientBytes: Int {
        let maxH = components.map(\.horizontal).max() ?? 1, maxV = components.map(\.vertical).max() ?? 1
        func blocks(_ size: Int, _ factor: Int, _ maximum: Int) -> Int {
            let inBlocks = (size * factor + maximum * 8 - 1) / (maximum * 8)
            return (inBlocks + factor - 1) / factor * factor
        }
        return components.reduce(0) { total, c in
            total + blocks(width, c.horizontal, maxH) * blocks(height, c.vertical, maxV) * 64 * 2
        }
    }

    /// Where the first start-of-frame marker (0xC0...0xCF but DHT 0xC4, JPG 0xC8, DAC 0xCC)
    /// starts, walking the segments from SOI; nil when it lies beyond `bytes`.
    static func offset(_ bytes: [UInt8]) -> Int? {
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }   // fill bytes
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) { return i }
            if marker == 0xDA { return nil }         // scan data before any frame header
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return nil
    }
}
