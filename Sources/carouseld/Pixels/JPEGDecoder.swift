import CImaging

/// JPEG through libturbojpeg: header first (size and EXIF orientation), then a DCT-scaled
/// decode (1/2, 1/4, 1/8) to the smallest size that still covers what the card needs.
enum JPEGDecoder {
    /// One turbojpeg decompressor, destroyed when it goes out of scope.
    private struct Handle: ~Copyable {
        let raw: tjhandle
        init() throws(ImageError) {
            guard let raw = tjInitDecompress() else { throw .outOfMemory(width: 0, height: 0) }
            self.raw = raw
        }
        deinit { tjDestroy(raw) }
        var message: String { String(cString: tjGetErrorStr2(raw)) }
    }

    /// The scaling factors this libjpeg-turbo offers, read once.
    static let availableScales: [JPEGScale] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [JPEGScale(num: 1, denom: 1)] }
        return (0..<Int(count)).map { JPEGScale(num: Int(factors[$0].num), denom: Int(factors[$0].denom)) }
    }()

    static func header(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageHeader {
        let handle = try Handle()
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        guard tjDecompressHeader3(handle.raw, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                  UInt(bytes.count), &width, &height, &subsampling, &colourspace) == 0 else {
            throw classify(handle.message)
        }
        return ImageHeader(width: Int(width), height: Int(height), orientation: ExifOrientation.read(jpeg: bytes))
    }

    /// Decodes at the smallest DCT scale giving at least `neededScale` × the full size.
    static func decode(_ bytes: UnsafeRawBufferPointer, header: ImageHeader,
                       neededScale: Double) throws(ImageError) -> DecodedImage {
        let handle = try Handle()
        let scale = JPEGScale.choose(width: header.width, height: header.height,
                                     needed: neededScale, available: availableScales)
        let width = scale.scaled(header.width), height = scale.scaled(header.height)
        guard let image = PixelImage(width: width, height: height, format: PIXMAN_x8r8g8b8) else {
            throw .outOfMemory(width: width, height: height)
        }
        // BGRX in memory is pixman's x8r8g8b8 on little-endian machines.
        let result = tjDecompress2(handle.raw, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                   UInt(bytes.count), image.base.assumingMemoryBound(to: UInt8.self),
                                   Int32(width), Int32(image.stride), Int32(height),
                                   Int32(TJPF_BGRX.rawValue), 0)
        if result != 0 {
            let message = handle.message
            // Warnings leave a picture; only the harmless "extraneous bytes" one is kept, since
            // the others (premature end, bad Huffman code) mean grey or garbled blocks on screen.
            let harmless = tjGetErrorCode(handle.raw) == Int32(TJERR_WARNING.rawValue)
                && message.contains("extraneous bytes")
            if !harmless { throw classify(message) }
            Log.debug("JPEG warning ignored: \(message)")
        }
        return DecodedImage(pixels: image, orientation: header.orientation, hasAlpha: false)
    }

    private static func classify(_ message: String) -> ImageError {
        if message.contains("Premature end") || message.contains("premature end") {
            return .truncated(format: "JPEG", detail: message)
        }
        return .corrupt(format: "JPEG", detail: message)
    }
}
