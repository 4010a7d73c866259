import CarouselEngine

/// The drawing plan for one frame, as whole-pixel rectangles, before any pixel is touched.
///
/// Cards that are opaque, unscaled and unblended ("direct") are copied straight into the
/// target. Everything else that overlaps (scaled or faded cards, the dots) forms a cluster
/// that is composed in a private strip buffer and then copied, so the target is only ever
/// written. What no cluster covers is filled with the background.
package struct CompositorPlan {
    package enum Item {
        /// A card drawn at its own size, top-left at `origin`.
        case translated(card: Int, origin: (x: Int, y: Int), opacity: Double)
        /// A card scaled about its centre: target pixel p shows card pixel (p − origin) / scale.
        case scaled(card: Int, origin: (x: Double, y: Double), scale: (x: Double, y: Double), opacity: Double)
        /// A card within a pixel of the side look, drawn from its image at that look
        /// (`SideLookCards`), top-left at `origin`: a copy, faded already.
        case sideLook(card: Int, origin: (x: Int, y: Int))
        case dots
    }
    package struct Entry {
        package var item: Item
        package var rect: IntRect
        package var isDirect: Bool {
            switch item {
            case .translated(_, _, let opacity): return opacity >= 1
            case .sideLook: return true
            default: return false
            }
        }
    }
    package struct Cluster {
        package var bounds: IntRect
        package var entries: [Entry]
    }

    package var clusters: [Cluster] = []

    /// True when some card is drawn scaled (so the frame's sampling filter matters).
    package var hasScaledCards: Bool { cardPixels.scaled > 0 }

    /// On-screen pixels of cards drawn as copies and drawn scaled (overlaps counted twice).
    package var cardPixels: (copied: Int, scaled: Int) {
        var copied = 0, scaled = 0
        for entry in clusters.flatMap(\.entries) {
            switch entry.item {
            case .translated, .sideLook: copied += entry.rect.width * entry.rect.height
            case .scaled: scaled += entry.rect.width * entry.rect.height
            case .dots: break
            }
        }
        return (copied, scaled)
    }

    /// The side look's scale and opacity, for cards that have an image at that look.
    package struct SideLook {
        package var scale: Double, opacity: Double
        package init(scale: Double, opacity: Double) { self.scale = scale; self.opacity = opacity }
        /// A card's size at this look, in whole pixels.
        package func size(of card: (width: Int, height: Int)) -> (width: Int, height: Int) {
            (Int((Double(card.width) * scale).rounded()), Int((Double(card.height) * scale).rounded()))
        }
    }

    /// `sizes[i]` is the pixel size of the ready card for `layout.cards[i]`, nil when not ready.
    /// `clip` is the target's pixel area. `sideLook[i]`: the card can be drawn from an image at
    /// that look (a full card, not a preview).
    package init(layout: FrameLayout, sizes: [(width: Int, height: Int)?], sideLook: [SideLook?] = [],
                 dots: IntRect, clip viewport: IntRect) {
        var entries: [Entry] = []
        for (i, card) in layout.cards.enumerated() {
            guard let size = sizes[i], card.opacity > 0, card.scale > 0 else { continue } // background card
            let w = card.width * card.scale, h = card.height * card.scale
            let left = card.x + (card.width - w) / 2, top = card.y + (card.height - h) / 2
            let sx = w / Double(size.width), sy = h / Double(size.height)
            let opacity = card.opacity >= 1 - Self.opacityTolerance ? 1 : card.opacity
            let entry: Entry
            if let look = sideLook.indices.contains(i) ? sideLook[i] : nil,
               let origin = Self.sideLookOrigin(card, size: size, look: look, drawn: (w, h), opacity: opacity) {
                entry = Entry(item: .sideLook(card: i, origin: (origin.x, origin.y)),
                              rect: IntRect(x: origin.x, y: origin.y, width: origin.width, height: origin.height))
            } else if Self.isUnscaled(sx, size.width) && Self.isUnscaled(sy, size.height) {
                // Translate-only: whole pixels around the card's centre, so rows copy unfiltered.
                let x = Int((card.x + (card.width - Double(size.width)) / 2).rounded())
                let y = Int((card.y + (card.height - Double(size.height)) / 2).rounded())
                entry = Entry(item: .translated(card: i, origin: (x, y), opacity: opacity),
                              rect: IntRect(x: x, y: y, width: size.width, height: size.height))
            } else {
                entry = Entry(item: .scaled(card: i, origin: (left, top), scale: (sx, sy), opacity: opacity),
                              rect: IntRect(enclosing: left, top, w, h))
            }
            let clipped = Entry(item: entry.item, rect: entry.rect.intersection(viewport))
            if !clipped.rect.isEmpty { entries.append(clipped) }
        }
        let dotsRect = dots.intersection(viewport)
        if !dotsRect.isEmpty { entries.append(Entry(item: .dots, rect: dotsRect)) }
        clusters = Self.cluster(entries)
    }

    /// Emphasis too small to see is not drawn. The spring ends every page change on a long tail
    /// (about half its frames) where the incoming card is within 0.15 % of its full size and
    /// opacity: such a card is copied unscaled and opaque, at most 1¼ px larger or smaller on
    /// each side (0.16 % of a 1536 px card, an order below what an eye tells apart) and at most
    /// 1½ levels of 255 off in colour.
    package static let scaleTolerance = 1.25
    package static let opacityTolerance = 1.5 / 255

    /// True when scaling `pixels` by `factor` moves its ends by at most `scaleTolerance` pixels.
    package static func isUnscaled(_ factor: Double, _ pixels: Int) -> Bool {
        abs(factor - 1) * Double(pixels) / 2 <= scaleTolerance
    }

    /// Where a card drawn `drawn` large at `opacity` lies as its side-look image, when that image
    /// is within the tolerances of it (a pixel at each end, 1½ levels of colour); nil otherwise.
    private static func sideLookOrigin(_ card: CardLayout, size: (width: Int, height: Int), look: SideLook,
                                       drawn: (w: Double, h: Double), opacity: Double) -> IntRect? {
        let (width, height) = look.size(of: size)
        guard abs(opacity - look.opacity) <= opacityTolerance,
              abs(drawn.w - Double(width)) / 2 <= scaleTolerance, abs(drawn.h - Double(height)) / 2 <= scaleTolerance
        else { return nil }
        return IntRect(x: Int((card.x + (card.width - Double(width)) / 2).rounded()),
                       y: Int((card.y + (card.height - Double(height)) / 2).rounded()), width: width, height: height)
    }

    /// Merges entries whose bounds overlap until no two clusters overlap; draw order is kept.
    private static func cluster(_ entries: [Entry]) -> [Cluster] {
        var groups = entries.enumerated().map { (bounds: $0.element.rect, members: [$0.offset]) }
        var merged = true
        while merged {
            merged = false
            outer: for i in groups.indices {
                for j in groups.indices where j > i && groups[i].bounds.intersects(groups[j].bounds) {
                    groups[i] = (groups[i].bounds.union(groups[j].bounds), groups[i].members + groups[j].members)
                    groups.remove(at: j)
                    merged = true
                    break outer
                }
            }
        }
        return groups.map { group in
            Cluster(bounds: group.bounds, entries: group.members.sorted().map { entries[$0] })
        }
    }
}
