import CarouselEngine

/// The drawing plan for one frame, as whole-pixel rectangles, before any pixel is touched.
///
/// Cards that are opaque, unscaled and unblended ("direct") are copied straight into the
/// target. Everything else that overlaps (scaled or faded cards, the dots) forms a cluster
/// that is composed in a private strip buffer and then copied, so the target is only ever
/// written. What no cluster covers is filled with the background.
struct CompositorPlan {
    enum Item {
        /// A card drawn at its own size, top-left at `origin`.
        case translated(card: Int, origin: (x: Int, y: Int), opacity: Double)
        /// A card scaled about its centre: target pixel p shows card pixel (p − origin) / scale.
        case scaled(card: Int, origin: (x: Double, y: Double), scale: (x: Double, y: Double), opacity: Double)
        case dots
    }
    struct Entry {
        var item: Item
        var rect: IntRect
        var isDirect: Bool {
            if case .translated(_, _, let opacity) = item { return opacity >= 1 }
            return false
        }
    }
    struct Cluster {
        var bounds: IntRect
        var entries: [Entry]
    }

    var clusters: [Cluster] = []

    /// `sizes[i]` is the pixel size of the ready card for `layout.cards[i]`, nil when not ready.
    /// `clip` is the target's pixel area.
    init(layout: FrameLayout, sizes: [(width: Int, height: Int)?], dots: IntRect, clip viewport: IntRect) {
        var entries: [Entry] = []
        for (i, card) in layout.cards.enumerated() {
            guard let size = sizes[i], card.opacity > 0, card.scale > 0 else { continue } // background card
            let w = card.width * card.scale, h = card.height * card.scale
            let left = card.x + (card.width - w) / 2, top = card.y + (card.height - h) / 2
            let sx = w / Double(size.width), sy = h / Double(size.height)
            let entry: Entry
            if abs(sx - 1) < 1e-9 && abs(sy - 1) < 1e-9 {
                // Translate-only: whole pixels, so rows copy unfiltered.
                let x = Int(left.rounded()), y = Int(top.rounded())
                entry = Entry(item: .translated(card: i, origin: (x, y), opacity: min(1, card.opacity)),
                              rect: IntRect(x: x, y: y, width: size.width, height: size.height))
            } else {
                entry = Entry(item: .scaled(card: i, origin: (left, top), scale: (sx, sy), opacity: min(1, card.opacity)),
                              rect: IntRect(enclosing: left, top, w, h))
            }
            let clipped = Entry(item: entry.item, rect: entry.rect.intersection(viewport))
            if !clipped.rect.isEmpty { entries.append(clipped) }
        }
        let dotsRect = dots.intersection(viewport)
        if !dotsRect.isEmpty { entries.append(Entry(item: .dots, rect: dotsRect)) }
        clusters = Self.cluster(entries)
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
