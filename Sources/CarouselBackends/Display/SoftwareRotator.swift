import CarouselPixels
import CImaging

/// Rotation for planes without a "rotation" property: frames are drawn into an unrotated
/// shadow image, then copied into the scanout buffer rotated with a pixman transform.
/// Angles are counter-clockwise, like DRM_MODE_ROTATE_*.
package final class SoftwareRotator {
    package let degrees: Int
    private let shadow: PixelImage

    /// A shadow of the picture size (`width` x `height`, i.e. the screen size with 90/270
    /// swapped); nil for angles that need no rotation or when memory is exhausted.
    package init?(degrees: Int, width: Int, height: Int) {
        guard [90, 180, 270].contains(degrees), let shadow = PixelImage(width: width, height: height) else { return nil }
        self.degrees = degrees
        self.shadow = shadow
    }

    package var width: Int { shadow.width }
    package var height: Int { shadow.height }
    /// The shadow, where frames are drawn.
    package var buffer: PixelBuffer { shadow.buffer }

    /// Copies the shadow into `dest` (the screen-sized scanout memory), rotated.
    package func copy(into dest: UnsafeMutableRawPointer, width dw: Int, height dh: Int, stride ds: Int) {
        guard let target = pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(dw), Int32(dh),
                                                    dest.assumingMemoryBound(to: UInt32.self), Int32(ds)) else { return }
        defer { pixman_image_unref(target) }
        // pixman maps destination pixels to source pixels: this is the inverse rotation.
        let one = pixman_fixed_t(1 << 16)
        let w = pixman_fixed_t(width) << 16, h = pixman_fixed_t(height) << 16
        var t = pixman_transform()
        switch degrees {
        case 90: setRows(&t, (0, -one, w), (one, 0, 0))   // sx = w - dy, sy = dx
        case 180: setRows(&t, (-one, 0, w), (0, -one, h)) // sx = w - dx, sy = h - dy
        default: setRows(&t, (0, one, 0), (-one, 0, h))   // sx = dy, sy = h - dx
        }
        pixman_image_set_transform(shadow.pixman, &t)
        pixman_image_set_filter(shadow.pixman, PIXMAN_FILTER_NEAREST, nil, 0)
        pixman_image_composite32(PIXMAN_OP_SRC, shadow.pixman, nil, target, 0, 0, 0, 0, 0, 0, Int32(dw), Int32(dh))
        pixman_image_set_transform(shadow.pixman, nil)
    }
}

private func setRows(_ t: inout pixman_transform,
                     _ row0: (pixman_fixed_t, pixman_fixed_t, pixman_fixed_t),
                     _ row1: (pixman_fixed_t, pixman_fixed_t, pixman_fixed_t)) {
    t.matrix = ((row0.0, row0.1, row0.2), (row1.0, row1.1, row1.2), (0, 0, pixman_fixed_t(1 << 16)))
}
