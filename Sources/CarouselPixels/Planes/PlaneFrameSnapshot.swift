import CImaging

/// A frame shown on planes, flattened the way the display engine blends it: the primary
/// plane's picture with each card's SRC crop scaled into its CRTC rectangle at its opacity,
/// bottom to top. For `ctl screenshot` (the primary buffer alone holds only the background
/// and dots), never for display.
package enum PlaneFrameSnapshot {
    package static func flatten(primary: PixelBuffer, cards: [(placed: PlacedCard, pixels: PixelBuffer)]) -> PixelImage? {
        guard let frame = PixelImage(width: primary.width, height: primary.height),
              let source = image(primary) else { return nil }
        defer { pixman_image_unref(source) }
        pixman_image_composite32(PIXMAN_OP_SRC, source, nil, frame.pixman, 0, 0, 0, 0, 0, 0,
                                 Int32(primary.width), Int32(primary.height))
        for (placed, pixels) in cards {
            guard let card = image(pixels) else { continue }
            defer { pixman_image_unref(card) }
            let d = placed.destination, s = placed.source
            // Frame pixel (x, y) of the rectangle shows card pixel s.origin + (x, y) * s.size / d.size.
            var transform = Affine.translation(s.x, s.y).after(.scale(s.width / Double(d.width), s.height / Double(d.height)))
                .pixmanTransform
            pixman_image_set_transform(card, &transform)
            pixman_image_set_filter(card, PIXMAN_FILTER_BILINEAR, nil, 0)
            var mask: OpaquePointer?
            if placed.alpha < 1 {
                var colour = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((placed.alpha * 0xffff).rounded()))
                mask = pixman_image_create_solid_fill(&colour)
            }
            defer { if let mask { pixman_image_unref(mask) } }
            pixman_image_composite32(mask == nil ? PIXMAN_OP_SRC : PIXMAN_OP_OVER, card, mask, frame.pixman, 0, 0, 0, 0,
                                     Int32(d.x), Int32(d.y), Int32(d.width), Int32(d.height))
        }
        return frame
    }

    /// An x8r8g8b8 pixman image over `buffer`'s memory (the caller unrefs it).
    private static func image(_ buffer: PixelBuffer) -> OpaquePointer? {
        pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(buffer.width), Int32(buffer.height),
                                 buffer.base.assumingMemoryBound(to: UInt32.self), Int32(buffer.stride))
    }
}
