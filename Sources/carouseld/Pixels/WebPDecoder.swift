import CImaging

/// WebP through libwebp. Alpha is decoded premultiplied (MODE_bgrA, pixman's a8r8g8b8) so the
/// card maker can composite it over the background with pixman.
enum WebPDecoder {
    static func header(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageHeader {
        let features = try features(bytes)
        return ImageHeader(width: Int(features.width), height: Int(features.height))
    }

    /// `neededScale` (< 1 for a card smaller than the picture): libwebp's own rescaler decodes
    /// straight to that size (`use_scaling`), so no full-size buffer exists: a 4096x4096 WebP
    /// for a 1000-pixel card takes 4 MB, not 64 MB.
    static func decode(_ bytes: UnsafeRawBufferPointer, neededScale: Double = 1) throws(ImageError) -> DecodedImage {
        let features = try features(bytes)
        if features.has_animation != 0 { throw .unsupported("animated WebP") }
        let fullWidth = Int(features.width), fullHeight = Int(features.height)
        let scale = min(1, max(neededScale, 1 / Double(max(1, min(fullWidth, fullHeight)))))
        // Rounded up: the card maker then resamples about 1:1, never up.
        let width = scale < 1 ? max(1, Int((Double(fullWidth) * scale).rounded(.up))) : fullWidth
        let height = scale < 1 ? max(1, Int((Double(fullHeight) * scale).rounded(.up))) : fullHeight
        let alpha = features.has_alpha != 0
        guard let pixels = PixelImage(width: width, height: height, format: PIXMAN_a8r8g8b8)
        else { throw .outOfMemory(width: width, height: height) }
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .corrupt(format: "WebP", detail: "libwebp version mismatch") }
        // Without alpha, MODE_BGRA writes alpha 0xFF: an opaque a8r8g8b8 image either way.
        config.output.colorspace = alpha ? MODE_bgrA : MODE_BGRA
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = pixels.base.assumingMemoryBound(to: UInt8.self)
        config.output.u.RGBA.stride = Int32(pixels.stride)
        config.output.u.RGBA.size = pixels.byteCount
        if width != fullWidth || height != fullHeight {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(width)
            config.options.scaled_height = Int32(height)
        }
        let status = WebPDecode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &config)
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw classify(status) }
        return DecodedImage(pixels: pixels, orientation: .up, hasAlpha: alpha)
    }

    private static func features(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> WebPBitstreamFeatures {
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        guard status == VP8_STATUS_OK else { throw classify(status) }
        return features
    }

    private static func classify(_ status: VP8StatusCode) -> ImageError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: return .truncated(format: "WebP", detail: "not enough data")
        case VP8_STATUS_UNSUPPORTED_FEATURE: return .unsupported("WebP with an unsupported feature")
        case VP8_STATUS_OUT_OF_MEMORY: return .outOfMemory(width: 0, height: 0)
        case VP8_STATUS_BITSTREAM_ERROR: return .corrupt(format: "WebP", detail: "bitstream error")
        default: return .corrupt(format: "WebP", detail: "libwebp status \(status.rawValue)")
        }
    }
}
