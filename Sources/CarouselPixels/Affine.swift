import CImaging

/// A 2-D affine map (x' = a·x + c·y + tx, y' = b·x + d·y + ty) used to build pixman
/// transforms, which map destination pixels to source pixels.
package struct Affine: Equatable {
    package var a = 1.0, b = 0.0, c = 0.0, d = 1.0, tx = 0.0, ty = 0.0

    package static let identity = Affine()
    package static func translation(_ x: Double, _ y: Double) -> Affine { Affine(tx: x, ty: y) }
    package static func scale(_ sx: Double, _ sy: Double) -> Affine { Affine(a: sx, d: sy) }

    /// `self` applied after `first`.
    package func after(_ first: Affine) -> Affine {
        Affine(a: a * first.a + c * first.b, b: b * first.a + d * first.b,
               c: a * first.c + c * first.d, d: b * first.c + d * first.d,
               tx: a * first.tx + c * first.ty + tx, ty: b * first.tx + d * first.ty + ty)
    }

    package func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + tx, b * x + d * y + ty)
    }

    /// The map back. Every map built here can be inverted: its scales are never 0.
    package var inverse: Affine {
        let det = a * d - b * c
        precondition(det != 0, "singular map")
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return Affine(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
    }

    /// The whole-pixel rectangle covering the image of `rect` (for maps that keep axes).
    package func enclosing(_ rect: IntRect) -> IntRect {
        let corners = [apply(Double(rect.x), Double(rect.y)), apply(Double(rect.maxX), Double(rect.maxY))]
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return IntRect(enclosing: xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!)
    }

    package var pixmanTransform: pixman_transform {
        var f = pixman_f_transform(m: ((a, c, tx), (b, d, ty), (0, 0, 1)))
        var t = pixman_transform()
        pixman_transform_from_pixman_f_transform(&t, &f)
        return t
    }
}
