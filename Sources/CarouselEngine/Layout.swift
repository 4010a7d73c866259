/// Where cards go on screen for a strip position: card size, step, emphasis and visibility.
struct LayoutGeometry: Sendable, Equatable {
    let viewport: Size
    let cardWidth: Double
    let cardHeight: Double
    /// Distance between neighbouring card origins in pixels (card width + spacing).
    let step: Double
    let centerScale: Double, sideScale: Double
    let centerOpacity: Double, sideOpacity: Double
    /// Half the width of a page in steps: all cards of the resting page are fully emphasised.
    let pageHalfWidth: Double

    init(config: CarouselConfig, viewport: Size) {
        self.viewport = viewport
        cardWidth = max(0, config.cardWidth.resolve(in: viewport.width))
        cardHeight = max(0, config.cardHeight.resolve(in: viewport.height))
        let step = cardWidth + (config.spacing.isFinite ? max(0, config.spacing) : 0)
        // Kept within 1 px...1e6 px even for unusable viewports, so the spring can still settle.
        self.step = step.isFinite ? min(max(1, step), 1e6) : 1
        // validate() rejects bad values; these guards only keep a bad config from drawing NaN.
        func finite(_ v: Double, _ fallback: Double) -> Double { v.isFinite ? v : fallback }
        centerScale = max(0, finite(config.emphasis.centerScale, 1)); sideScale = max(0, finite(config.emphasis.sideScale, 1))
        centerOpacity = min(max(0, finite(config.emphasis.centerOpacity, 1)), 1)
        sideOpacity = min(max(0, finite(config.emphasis.sideOpacity, 1)), 1)
        pageHalfWidth = Double(max(1, config.cardsPerPage) - 1) / 2
    }

    /// Left edge of a slot's unscaled card. `slot - position` is exact for the whole and half
    /// positions the strip rests on, so re-centring by N slots gives bit-identical values.
    func cardX(slot: Int, position: Double) -> Double {
        (Double(slot) - position) * step + (viewport.width - cardWidth) / 2
    }

    /// 1 for a card in the centre (or in the resting page), falling linearly to 0 one step out.
    func emphasis(slot: Int, position: Double) -> Double {
        let distance = max(0, abs(Double(slot) - position) - pageHalfWidth)
        return max(0, 1 - distance)
    }

    func card(slot: Int, item: Int, position: Double) -> CardLayout {
        let e = emphasis(slot: slot, position: position)
        return CardLayout(index: item, x: cardX(slot: slot, position: position),
                          y: (viewport.height - cardHeight) / 2, width: cardWidth, height: cardHeight,
                          scale: sideScale + (centerScale - sideScale) * e,
                          opacity: sideOpacity + (centerOpacity - sideOpacity) * e)
    }

    /// Cards that intersect the viewport (after scaling about their centre), centre-most last.
    /// A viewport and cards that can be laid out at all: finite, non-empty, below any real screen
    /// size by far (so slot arithmetic cannot overflow).
    var isDrawable: Bool {
        [viewport.width, viewport.height, cardWidth, cardHeight].allSatisfy { $0.isFinite && $0 <= 1e6 }
            && cardWidth > 0 && cardHeight > 0
    }

    func cards(on strip: Strip, at position: Double) -> [CardLayout] {
        guard strip.itemCount > 0, isDrawable, position.isFinite, abs(position) < 1e12 else { return [] }
        let maxScale = max(centerScale, sideScale, 1)
        let reach = (viewport.width / 2 + cardWidth * maxScale / 2) / step + 1
        let first = Int((position - reach).rounded(.down)), last = Int((position + reach).rounded(.up))
        var visible: [(distance: Double, slot: Int, card: CardLayout)] = []
        visible.reserveCapacity(min(last - first + 1, 4096))
        for slot in first...last where strip.isDrawn(slot: slot) {
            let card = card(slot: slot, item: strip.item(atSlot: slot), position: position)
            let halfWidth = card.width * card.scale / 2, centre = card.x + card.width / 2
            guard centre + halfWidth > 0, centre - halfWidth < viewport.width else { continue }
            visible.append((abs(Double(slot) - position), slot, card))
        }
        // Far cards first so the centre-most card is drawn last, on top. Ties by slot keep the
        // order stable across a re-centre (which shifts every slot by the same amount).
        visible.sort { $0.distance != $1.distance ? $0.distance > $1.distance : $0.slot < $1.slot }
        return visible.map(\.card)
    }

    /// The topmost card slot under a screen point, if any.
    func slot(at x: Double, _ y: Double, on strip: Strip, position: Double) -> Int? {
        guard strip.itemCount > 0, isDrawable, position.isFinite, abs(position) < 1e12 else { return nil }
        let nearest = Int(((x - viewport.width / 2) / step + position).rounded())
        var best: (distance: Double, slot: Int)?
        for slot in (nearest - 2)...(nearest + 2) where strip.isDrawn(slot: slot) {
            let card = card(slot: slot, item: 0, position: position)
            let cx = card.x + card.width / 2, cy = card.y + card.height / 2
            guard abs(x - cx) <= card.width * card.scale / 2, abs(y - cy) <= card.height * card.scale / 2 else { continue }
            let distance = abs(Double(slot) - position)
            if let b = best, b.distance <= distance { continue }
            best = (distance, slot)
        }
        return best?.slot
    }
}
