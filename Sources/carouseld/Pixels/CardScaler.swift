import CImaging
import Glibc

/// The one high-quality resample from decoded pixels to a pre-scaled card: EXIF orientation,
/// fit (cover crops, contain letterboxes) and the scale are folded into a single pixman
/// transform, so pixels are filtered exactly once.
enum CardScaler {
    static func makeCard(from decoded: DecodedImage, spec: CardSpec) throws(ImageError) -> PixelImage {
        let source = decoded.pixels
        guard let card = PixelImage(width: spec.width, height: spec.height, format: PIXMAN_x8r8g8b8) else {
            throw .outOfMemory(width: spec.width, height: spec.height)
        }
        let upright = decoded.orientation.orientedSize(width: source.width, height: source.height)
        let place = FitPlacement(imageWidth: upright.width, imageHeight: upright.height,
                                 cardWidth: spec.width, cardHeight: spec.height, fit: spec.fit)
        let covered = place.coveredPixels(cardWidth: spec.width, cardHeight: spec.height)
        if decoded.hasAlpha || covered.width < spec.width || covered.height < spec.height {
            card.fill(spec.background.value)
        }
        // Card pixel -> upright picture pixel -> stored pixel.
        let cardToUpright = Affine.scale(1 / place.scale, 1 / place.scale).after(.translation(-place.x, -place.y))
        var transform = decoded.orientation
            .uprightToStored(width: Double(source.width), height: Double(source.height))
            .after(cardToUpright).pixmanTransform
        pixman_image_set_transform(source.pixman, &transform)
        // PAD: edge pixels repeat instead of fading to transparent at the picture's border.
        pixman_image_set_repeat(source.pixman, PIXMAN_REPEAT_PAD)
        setResampleFilter(on: source.pixman, sourcePixelsPerCardPixel: 1 / place.scale)
        pixman_image_composite32(decoded.hasAlpha ? PIXMAN_OP_OVER : PIXMAN_OP_SRC, source.pixman, nil, card.pixman,
                                 Int32(covered.x), Int32(covered.y), 0, 0, Int32(covered.x), Int32(covered.y),
                                 Int32(covered.width), Int32(covered.height))
        pixman_image_set_transform(source.pixman, nil)
        return card
    }

    /// Shrinking: a separable convolution (linear reconstruction, box sampling over the
    /// footprint of one card pixel) so detail averages instead of aliasing; pixman's GOOD and
    /// BEST filters are bilinear, which skips source pixels when shrinking by more than 2.
    /// Enlarging or keeping the size: bilinear.
    static func setResampleFilter(on image: OpaquePointer, sourcePixelsPerCardPixel ratio: Double) {
        guard ratio > 1.0001 else {
            pixman_image_set_filter(image, PIXMAN_FILTER_BILINEAR, nil, 0)
            return
        }
        var count: Int32 = 0
        let fixed = pixman_fixed_t((ratio * 65536).rounded())
        guard let params = pixman_filter_create_separable_convolution(
            &count, fixed, fixed, PIXMAN_KERNEL_LINEAR, PIXMAN_KERNEL_LINEAR,
            PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, 2, 2) else {
            pixman_image_set_filter(image, PIXMAN_FILTER_BILINEAR, nil, 0)
            return
        }
        pixman_image_set_filter(image, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, params, count)
        free(params)
    }
}
