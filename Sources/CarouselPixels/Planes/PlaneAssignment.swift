import CarouselEngine

/// What a CRTC's overlay planes can do, read from their properties (issue 24): a card on its own
/// plane moves by two numbers in an atomic commit, with no pixel copied.
package struct PlaneCapabilities: Sendable, Equatable {
    /// Overlay planes the CRTC may use (the primary keeps the background and the dots).
    package var overlays: Int
    /// The planes scale (SRC size different from CRTC size); vkms's do not, vc4's and i915's do.
    package var canScale: Bool
    /// The planes have an "alpha" property (per-plane opacity); vkms's do not.
    package var hasAlpha: Bool
    package init(overlays: Int, canScale: Bool, hasAlpha: Bool) {
        self.overlays = overlays; self.canScale = canScale; self.hasAlpha = hasAlpha
    }
}

/// One card on one plane.
package struct PlacedCard: Sendable, Equatable {
    /// Playlist index of the picture.
    package var item: Int
    /// The part of the card's pixels shown, in card pixels (SRC_*, 16.16 fixed point in the
    /// commit): a card cut by the screen's edge shows part of itself.
    package var source: (x: Double, y: Double, width: Double, height: Double)
    /// Where it shows, inside the screen (CRTC_*).
    package var destination: IntRect
    /// 0...1; 1 is opaque (no alpha property needed).
    package var alpha: Double
    /// How much the plane scales the card (destination over source width): a preview shown
    /// at its card's size is scaled too.
    package var scale: Double { source.width > 0 ? Double(destination.width) / source.width : 1 }

    package static func == (a: PlacedCard, b: PlacedCard) -> Bool {
        a.item == b.item && a.source == b.source && a.destination == b.destination && a.alpha == b.alpha
    }

    /// True when the plane must scale it (SRC size differs from CRTC size by half a pixel or more).
    package var isScaled: Bool {
        abs(source.width - Double(destination.width)) >= 0.5 || abs(source.height - Double(destination.height)) >= 0.5
    }
}

/// Where a frame's cards go on overlay planes, bottom to top. Pure geometry: the display
/// backend decides whether its planes take them (`PlaneCapabilities.refusal`, then a TEST_ONLY
/// commit, which can still refuse them: a format, a bandwidth limit).
package enum PlaneAssignment {
    /// `cardSize(item)`: the size of the card's decoded pixels, nil while not decoded yet (then
    /// the result is nil: the frame is composed). Emphasis too small to see counts as none, as
    /// the compositor draws it (`CompositorPlan.scaleTolerance`, `opacityTolerance`).
    package static func place(_ layout: FrameLayout, cardSize: (Int) -> (width: Int, height: Int)?) -> [PlacedCard]? {
        let screen = IntRect(x: 0, y: 0, width: Int(layout.viewport.width), height: Int(layout.viewport.height))
        var placed: [PlacedCard] = []
        for card in layout.cards {
            guard let size = cardSize(card.index) else { return nil }
            let scaleX = card.width * card.scale / Double(size.width), scaleY = card.height * card.scale / Double(size.height)
            let unscaled = CompositorPlan.isUnscaled(scaleX, size.width) && CompositorPlan.isUnscaled(scaleY, size.height)
            let opaque = card.opacity >= 1 - CompositorPlan.opacityTolerance
            // Centred on the layout's card, as the compositor places it.
            let width = unscaled ? Double(size.width) : card.width * card.scale
            let height = unscaled ? Double(size.height) : card.height * card.scale
            let left = card.x + (card.width - width) / 2, top = card.y + (card.height - height) / 2
            let whole = unscaled ? IntRect(x: Int(left.rounded()), y: Int(top.rounded()), width: size.width, height: size.height)
                                 : IntRect(enclosing: left, top, width, height)
            let shown = whole.intersection(screen)
            guard !shown.isEmpty else { continue }
            // The crop in card pixels: the shown part's share of the whole, at the card's own scale.
            let perX = Double(size.width) / Double(whole.width), perY = Double(size.height) / Double(whole.height)
            placed.append(PlacedCard(item: card.index,
                                     source: (Double(shown.x - whole.x) * perX, Double(shown.y - whole.y) * perY,
                                              Double(shown.width) * perX, Double(shown.height) * perY),
                                     destination: shown, alpha: opaque ? 1 : card.opacity))
        }
        return placed
    }
}

extension PlaneCapabilities {
    /// Why these planes cannot show `placed`, or nil when they can (the driver's TEST_ONLY
    /// commit still has the last word).
    package func refusal(for placed: [PlacedCard]) -> ComposeReason? {
        if !canScale, let scaled = placed.first(where: \.isScaled) { return .planesCannotScale(scale: scaled.scale) }
        if !hasAlpha, let faded = placed.first(where: { $0.alpha < 1 }) { return .planesHaveNoAlpha(opacity: faded.alpha) }
        if placed.count > overlays { return .tooManyCards(shown: placed.count, planes: overlays) }
        return nil
    }
}

/// A card to show on an overlay plane: where it goes, and its pixels.
package struct PlaneCard {
    package var placed: PlacedCard
    package var card: Card
    package init(placed: PlacedCard, card: Card) { self.placed = placed; self.card = card }

    /// True when the plane must scale it (see `PlacedCard.isScaled`).
    package var isScaled: Bool { placed.isScaled }
}
