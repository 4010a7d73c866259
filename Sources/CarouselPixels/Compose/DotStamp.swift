import CImaging
import Glibc

/// One antialiased disc as an 8-bit coverage mask, rasterised once by pixman from a fan of
/// triangles; each page dot is a solid colour composited through it.
package final class DotStamp {
    package let mask: PixelImage
    /// Mask pixels from its top-left to the disc centre (the disc sits on a pixel-grid half).
    package let side: Int

    package init?(diameter: Double) {
        side = Int(diameter.rounded(.up)) + 2
        guard let mask = PixelImage(width: side, height: side, format: PIXMAN_a8) else { return nil }
        self.mask = mask
        let centre = Double(side) / 2, radius = diameter / 2
        let steps = 64
        func fixed(_ v: Double) -> pixman_fixed_t { pixman_fixed_t((v * 65536).rounded()) }
        func point(_ i: Int) -> pixman_point_fixed {
            let angle = Double(i) / Double(steps) * 2 * Double.pi
            return pixman_point_fixed(x: fixed(centre + radius * cos(angle)), y: fixed(centre + radius * sin(angle)))
        }
        let middle = pixman_point_fixed(x: fixed(centre), y: fixed(centre))
        var triangles = (0..<steps).map { pixman_triangle(p1: middle, p2: point($0), p3: point($0 + 1)) }
        pixman_add_triangles(mask.pixman, 0, 0, Int32(steps), &triangles)
    }
}
