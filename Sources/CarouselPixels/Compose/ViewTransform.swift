import CarouselEngine

/// Where one output's picture sits in the carousel's frame (the engine's viewport):
/// output pixel = engine pixel × `scale` − `origin`.
///
/// - span: scale 1, origin at the output's left edge in the wide virtual screen;
/// - mirror: the output's own size over the engine's (fitted, so nothing is cut), origin at
///   minus the letterbox margin;
/// - one screen, or independent screens: the identity.
package struct ViewTransform: Equatable, Sendable {
    package var scale: Double = 1
    package var originX: Double = 0
    package var originY: Double = 0

    package init(scale: Double = 1, originX: Double = 0, originY: Double = 0) {
        self.scale = scale; self.originX = originX; self.originY = originY
    }

    package static let identity = ViewTransform()

    /// The layout as this output draws it. Every card stays in, also those off this output:
    /// outputs that share an image store then all ask it for the same cards (no thrashing),
    /// and the compositor clips what falls outside. The viewport becomes the scaled virtual
    /// screen; the page dots are placed in it and moved by the origin (`Compositor.origin`).
    package func apply(_ layout: FrameLayout) -> FrameLayout {
        guard self != .identity else { return layout }
        var out = layout
        out.viewport = Size(width: layout.viewport.width * scale, height: layout.viewport.height * scale)
        out.cards = layout.cards.map { card in
            CardLayout(index: card.index, x: card.x * scale - originX, y: card.y * scale - originY,
                       width: card.width * scale, height: card.height * scale,
                       scale: card.scale, opacity: card.opacity)
        }
        return out
    }

    /// A point on this output (after its rotation) → the same point in the engine's frame,
    /// for touches.
    package func toEngine(x: Double, y: Double) -> (x: Double, y: Double) {
        ((x + originX) / scale, (y + originY) / scale)
    }
}
