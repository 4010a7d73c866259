import CarouselCore
import CImaging

/// JPEG through libturbojpeg: header first (size and EXIF orientation), then a DCT-scaled
/// decode (1/2, 1/4, 1/8) to the smallest size that still covers what the card needs.
package enum JPEGDecoder {
    /// Runs `body` with a fresh turbojpeg decompressor, destroyed on return (a `defer`, so
    /// it outlives every C call that uses it).
    private static func withDecompressor<T>(_ body: (tjhandle) throws(ImageError) -> T) throws(ImageError) -> T {
        guard let handle = tjInitDecompress() else { throw .outOfMemory(width: 0, height: 0) }
        defer { tjDestroy(handle) }
        return try body(handle)
    }

    private static func message(_ handle: tjhandle) -> String { String(cString: tjGetErrorStr2(handle)) }

    /// The scaling factors this libjpeg-turbo offers, read once.
    package static let availableScales: [JPEGScale] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [JPEGScale(num: 1, denom: 1)] }
        return (0..<Int(count)).map { JPEGScale(num: Int(factors[$0].num), denom: Int(factors[$0].denom)) }
    }()

    package static func header(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageHeader {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        guard let base = bytes.baseAddress else { throw .empty }
        try withDecompressor { (handle) throws(ImageError) in
            guard tjDecompressHeader3(handle, base.assumingMemoryBound(to: UInt8.self),
                                      UInt(bytes.count), &width, &height, &subsampling, &colourspace) == 0 else {
                throw classify(message(handle), bytes)
            }
        }
        return ImageHeader(width: Int(width), height: Int(height), orientation: ExifOrientation.read(jpeg: bytes))
    }

    /// Decodes at the smallest DCT scale giving at least `neededScale` × the full size.
    package static func decode(_ bytes: UnsafeRawBufferPointer, header: ImageHeader,
                       neededScale: Double) throws(ImageError) -> DecodedImage {
        let scale = JPEGScale.choose(width: header.width, height: header.height,
                                     needed: neededScale, available: availableScales)
        let width = scale.scaled(header.width), height = scale.scaled(header.height)
        // Opaque a8r8g8b8 (turbojpeg fills alpha with 0xFF) rather than x8r8g8b8: pixman's SIMD
        // bilinear paths used by the card resample take a8r8g8b8 sources.
        guard let image = PixelImage(width: width, height: height, format: PIXMAN_a8r8g8b8) else {
            throw .outOfMemory(width: width, height: height)
        }
        guard let base = bytes.baseAddress else { throw .empty }
        try withDecompressor { (handle) throws(ImageError) in
            // BGRA in memory is pixman's a8r8g8b8 on little-endian machines.
            let result = tjDecompress2(handle, base.assumingMemoryBound(to: UInt8.self),
                                       UInt(bytes.count), image.base.assumingMemoryBound(to: UInt8.self),
                                       Int32(width), Int32(image.stride), Int32(height),
                                       Int32(TJPF_BGRA.rawValue), 0)
            guard result != 0 else { return }
            let text = message(handle)
            // Warnings leave a picture; only the harmless "extraneous bytes" one is kept, since
            // the others (premature end, bad Huffman code) mean grey or garbled blocks on screen.
            let harmless = tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) && text.contains("extraneous bytes")
            if !harmless { throw classify(text, bytes) }
            Log.debug("JPEG warning ignored: \(text)")
        }
        return DecodedImage(pixels: image, orientation: header.orientation, hasAlpha: false)
    }

    /// A file that stops before its end-of-image marker is called truncated, whatever part
    /// of it libjpeg was reading when the data ran out.
    package static func classify(_ message: String, _ file: ImageFile.Opened) -> ImageError {
        classify(message, endsWithEOI: file.ends(with: [0xFF, 0xD9]))
    }

    private static func classify(_ message: String, _ bytes: UnsafeRawBufferPointer) -> ImageError {
        classify(message, endsWithEOI: bytes.count >= 2 && bytes[bytes.count - 2] == 0xFF && bytes[bytes.count - 1] == 0xD9)
    }

    private static func classify(_ message: String, endsWithEOI: Bool) -> ImageError {
        if message.contains("Premature end") || !endsWithEOI {
            return .truncated(format: "JPEG", detail: message)
        }
        return .corrupt(format: "JPEG", detail: message)
    }
}
