import CarouselCore
import CImaging
import CarouselEngine

/// WebP through libwebp. Alpha is decoded premultiplied (MODE_bgrA, pixman's a8r8g8b8) so the
/// card maker can composite it over the background with pixman.
package enum WebPDecoder {
    /// Canvas size and the orientation from the file's EXIF chunk.
    package static func header(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageHeader {
        let features = try features(bytes)
        return ImageHeader(width: Int(features.width), height: Int(features.height),
                           orientation: EmbeddedExif.webpOrientation(bytes))
    }

    /// Decodes straight to about the card's size with libwebp's own rescaler (`use_scaling`),
    /// so no full-size buffer exists: a 4096x4096 WebP for a 1000-pixel card takes 4 MB, not
    /// 64 MB. For fit cover only the part the card shows is decoded (`use_cropping`). An
    /// animated WebP shows its first frame.
    package static func decode(_ bytes: UnsafeRawBufferPointer, header: ImageHeader, spec: CardSpec) throws(ImageError) -> DecodedImage {
        let features = try features(bytes)
        guard features.has_animation != 0 else { return try decodeStill(bytes, header: header, spec: spec) }
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw .empty }
        var data = WebPData(bytes: base, size: bytes.count)
        guard let demuxer = WebPDemux(&data) else { throw .corrupt(format: "WebP", detail: "animation container unreadable") }
        defer { WebPDemuxDelete(demuxer) }
        var frame = WebPIterator()
        guard WebPDemuxGetFrame(demuxer, 1, &frame) != 0 else { throw .corrupt(format: "WebP", detail: "animation without frames") }
        defer { WebPDemuxReleaseIterator(&frame) }
        // The first frame's own bitstream; a first frame smaller than the canvas is shown alone.
        let fragment = UnsafeRawBufferPointer(start: frame.fragment.bytes, count: frame.fragment.size)
        var still = header
        still.width = Int(frame.width); still.height = Int(frame.height)
        return try decodeStill(fragment, header: still, spec: spec)
    }

    private static func decodeStill(_ bytes: UnsafeRawBufferPointer, header: ImageHeader, spec: CardSpec) throws(ImageError) -> DecodedImage {
        let features = try features(bytes)
        let fullWidth = Int(features.width), fullHeight = Int(features.height)
        let crop = visiblePart(width: fullWidth, height: fullHeight, orientation: header.orientation, spec: spec)
        let upright = header.orientation.orientedSize(width: fullWidth, height: fullHeight)
        let needed = FitPlacement(imageWidth: upright.width, imageHeight: upright.height,
                                  cardWidth: spec.width, cardHeight: spec.height, fit: spec.fit).scale
        let scale = min(1, max(needed, 1 / Double(max(1, min(crop.width, crop.height)))))
        // Rounded up: the card maker then resamples about 1:1, never up.
        let width = scale < 1 ? max(1, Int((Double(crop.width) * scale).rounded(.up))) : crop.width
        let height = scale < 1 ? max(1, Int((Double(crop.height) * scale).rounded(.up))) : crop.height
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
        if crop.width != fullWidth || crop.height != fullHeight {
            config.options.use_cropping = 1
            config.options.crop_left = Int32(crop.x); config.options.crop_top = Int32(crop.y)
            config.options.crop_width = Int32(crop.width); config.options.crop_height = Int32(crop.height)
        }
        if width != crop.width || height != crop.height {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(width)
            config.options.scaled_height = Int32(height)
        }
        let status = WebPDecode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &config)
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw classify(status) }
        return DecodedImage(pixels: pixels, orientation: header.orientation, hasAlpha: alpha)
    }

    /// For fit cover, the centred part of the stored picture the card shows: only the axis that
    /// overflows the card is cut, and by an amount that keeps the cut part centred on the
    /// picture's centre with an even left/top edge (libwebp's crop origin for 4:2:0 data). Then
    /// cover-fitting the cut part gives the same scale and position as the whole picture.
    package static func visiblePart(width: Int, height: Int, orientation: ExifOrientation,
                            spec: CardSpec) -> (x: Int, y: Int, width: Int, height: Int) {
        guard spec.fit == .cover else { return (0, 0, width, height) }
        let upright = orientation.orientedSize(width: width, height: height)
        let place = FitPlacement(imageWidth: upright.width, imageHeight: upright.height,
                                 cardWidth: spec.width, cardHeight: spec.height, fit: .cover)
        // Visible upright extent plus a filter margin of two source pixels each side.
        let margin = 4.0 / place.scale
        var visible = (width: Double(spec.width) / place.scale + margin, height: Double(spec.height) / place.scale + margin)
        if orientation.swapsAxes { visible = (visible.height, visible.width) }
        func cut(_ full: Int, _ shown: Double) -> (start: Int, length: Int) {
            var length = min(full, Int(shown.rounded(.up)))
            length += (full - length) % 4 // (full - length) / 2 then is even
            guard length < full else { return (0, full) }
            return ((full - length) / 2, length)
        }
        let x = cut(width, visible.width), y = cut(height, visible.height)
        return (x.start, y.start, x.length, y.length)
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
