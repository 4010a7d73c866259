import CarouselPixels
import CImaging

/// A photo-sized picture drawn with pixman for the benchmark: a diagonal colour gradient with
/// a fine pseudo-random texture over it, so its JPEG carries detail like a photo does.
enum SyntheticPhoto {
    static func make(width: Int, height: Int, seed: UInt32) -> PixelImage? {
        guard let photo = PixelImage(width: width, height: height),
              let texture = PixelImage(width: 256, height: 256) else { return nil }
        func colour(_ rgb: UInt32) -> pixman_color_t {
            pixman_color_t(red: UInt16((rgb >> 16) & 0xFF) * 257, green: UInt16((rgb >> 8) & 0xFF) * 257,
                           blue: UInt16(rgb & 0xFF) * 257, alpha: 0xFFFF)
        }
        let tint = seed &* 0x9E37_79B9
        var stops = [pixman_gradient_stop_t(x: 0, color: colour(0x203050 ^ (tint & 0x3F3F3F))),
                     pixman_gradient_stop_t(x: 1 << 15, color: colour(0xC08040 ^ (tint >> 8 & 0x3F3F3F))),
                     pixman_gradient_stop_t(x: 1 << 16, color: colour(0x40A0C0 ^ (tint >> 16 & 0x3F3F3F)))]
        var from = pixman_point_fixed_t(x: 0, y: 0)
        var to = pixman_point_fixed_t(x: pixman_fixed_t(width) << 16, y: pixman_fixed_t(height) << 16)
        guard let gradient = pixman_image_create_linear_gradient(&from, &to, &stops, Int32(stops.count)) else { return nil }
        pixman_image_composite32(PIXMAN_OP_SRC, gradient, nil, photo.pixman, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
        pixman_image_unref(gradient)

        var state = seed | 1
        for y in stride(from: 0, to: 256, by: 2) {
            for x in stride(from: 0, to: 256, by: 2) {
                state = state &* 1_664_525 &+ 1_013_904_223
                pixman_fill(texture.base.assumingMemoryBound(to: UInt32.self), Int32(texture.stride / 4), 32,
                            Int32(x), Int32(y), 2, 2, state | 0xFF00_0000)
            }
        }
        pixman_image_set_repeat(texture.pixman, PIXMAN_REPEAT_NORMAL)
        var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: 0x2800)
        let mask = pixman_image_create_solid_fill(&alpha)
        pixman_image_composite32(PIXMAN_OP_OVER, texture.pixman, mask, photo.pixman, 0, 0, 0, 0, 0, 0,
                                 Int32(width), Int32(height))
        if let mask { pixman_image_unref(mask) }
        return photo
    }
}
