import CarouselCore
import CarouselEngine

/// Which way the strip is going, from one layout to the next: +1 brings higher playlist
/// indices in (paging forward, auto-advance's way), -1 lower ones. Kept while nothing moves,
/// so the cards decoded at rest are those the last motion was heading for.
package struct MotionDirection {
    package private(set) var value = 1
    private var previous: FrameLayout?

    /// Updates the direction from `layout` against the layout seen before it.
    package mutating func update(_ layout: FrameLayout) -> Int {
        defer { previous = layout }
        guard let previous, layout.itemCount > 0, previous.itemCount == layout.itemCount else { return value }
        let count = layout.itemCount
        // The engine selects the target page at once on a page change or fling: its side is the way.
        let forward = ((layout.selectedIndex - previous.selectedIndex) % count + count) % count
        if forward != 0 {
            value = forward <= count - forward ? 1 : -1
            return value
        }
        // A drag: the selected card moves left (x falls) when later cards come in.
        if let now = Self.uniqueCard(layout.selectedIndex, in: layout),
           let before = Self.uniqueCard(layout.selectedIndex, in: previous), abs(now.x - before.x) >= 0.5 {
            value = now.x < before.x ? 1 : -1
        }
        return value
    }

    /// The card showing `index`, if it shows exactly once (a short playlist may repeat it).
    private static func uniqueCard(_ index: Int, in layout: FrameLayout) -> CardLayout? {
        var match: CardLayout?
        for card in layout.cards where card.index == index {
            if match != nil { return nil }
            match = card
        }
        return match
    }
}

/// The order in which cards are decoded: the selected card, then those on the side the strip
/// is moving to (nearest first), then the rest (nearest first). The playlist loops.
package struct DecodeOrder {
    package var count: Int
    package var selected: Int
    package var direction: Int

    /// Sorts `indices` by priority; stable for equal keys.
    package func sorted(_ indices: [Int]) -> [Int] {
        indices.enumerated().sorted { a, b in
            let ka = key(a.element), kb = key(b.element)
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
    }

    /// The `limit` indices nearest the selected card (the motion side first at equal
    /// distance), in priority order: what previews are kept for.
    package func nearest(_ limit: Int) -> [Int] {
        guard count > 0, limit > 0 else { return [] }
        var picked = [wrapped(selected)], seen: Set<Int> = [wrapped(selected)]
        var distance = 1
        while picked.count < min(limit, count) && distance <= count {
            for index in [selected + direction * distance, selected - direction * distance]
            where picked.count < limit && seen.insert(wrapped(index)).inserted {
                picked.append(wrapped(index))
            }
            distance += 1
        }
        return sorted(picked)
    }

    /// (0, 0) for the selected card, (1, distance) on the motion side, (2, distance) behind.
    private func key(_ index: Int) -> (Int, Int) {
        guard count > 0 else { return (0, 0) }
        let ahead = wrapped(index - selected)
        if ahead == 0 { return (0, 0) }
        let forward = direction >= 0 ? ahead : count - ahead
        let backward = count - forward
        return forward <= backward ? (1, forward) : (2, backward)
    }

    private func wrapped(_ index: Int) -> Int { ((index % count) + count) % count }
}
