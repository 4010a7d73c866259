import CarouselEngine

/// The panned strip: on a screen whose display engine has only a primary plane, a flat look
/// (every card at scale 1 and full opacity, no page dots) is one picture that only slides. The
/// resting page and the pages either side are drawn once, side by side, into one wide buffer at
/// rest; each frame of a page change then shows that buffer from another column, and copies
/// nothing. The window is drawn again once the strip rests on another page.
///
/// Columns are whole pixels: a frame's cards sit within half a pixel of where a composed frame
/// puts them, as the compositor rounds a translated card's place too.
package struct PanWindow: Equatable {
    /// The resting layout the window was drawn around.
    package let anchor: FrameLayout
    /// What the wide buffer holds: the anchor's cards and its neighbours', in buffer columns.
    package let layout: FrameLayout
    /// The column the anchor's view starts at.
    package let restColumn: Int

    /// Pixels beyond the neighbouring pages on either side: a spring overshoots its page a
    /// little (about 1 % of a page at the default damping; a fling more).
    package static let overshoot = 0.25

    package var width: Int { Int(layout.viewport.width) }
    package var viewWidth: Int { Int(anchor.viewport.width) }

    /// A look whose every card is at scale 1 and full opacity, wherever it is. Its frames at rest
    /// may show only flat cards where the rest of the look is not (a card as wide as the screen
    /// leaves its scaled neighbours off it): a window drawn then would serve no page change.
    package static func isFlat(_ emphasis: CardEmphasis) -> Bool {
        [emphasis.centerScale, emphasis.sideScale, emphasis.centerOpacity, emphasis.sideOpacity].allSatisfy { $0 == 1 }
    }

    /// A frame that a window can show: cards all at scale 1 and full opacity.
    package static func isFlat(_ layout: FrameLayout) -> Bool {
        !layout.cards.isEmpty && layout.cards.allSatisfy { $0.scale == 1 && $0.opacity == 1 }
    }

    /// A window around `anchor` (at rest), from the resting layouts of the pages around it with
    /// their distance in pixels along the strip (`CarouselEngine.restingLayouts`). It reaches the
    /// nearest page on either side and `overshoot` of a page beyond. nil when a layout is not
    /// flat or none lies on either side.
    package init?(anchor: FrameLayout, around: [(distance: Double, layout: FrameLayout)]) {
        guard !anchor.isMoving, Self.isFlat(anchor), around.allSatisfy({ Self.isFlat($0.layout) }),
              let before = around.map(\.distance).filter({ $0 < 0 }).max(),
              let after = around.map(\.distance).filter({ $0 > 0 }).min(),
              before.isFinite, after.isFinite, anchor.viewport.width >= 1, anchor.viewport.width <= 1e5 else { return nil }
        let reach = Int((max(-before, after) * (1 + Self.overshoot)).rounded(.up))
        guard reach <= 100_000 else { return nil }
        let viewWidth = anchor.viewport.width
        let width = Double(2 * reach) + viewWidth
        var cards: [CardLayout] = []
        for (distance, view) in [(0, anchor)] + around {
            for card in view.cards {
                var moved = card
                moved.x += Double(reach) + distance
                guard moved.x + moved.width > 0, moved.x < width,
                      !cards.contains(where: { $0.index == moved.index && abs($0.x - moved.x) < 0.5 }) else { continue }
                cards.append(moved)
            }
        }
        self.anchor = anchor
        restColumn = reach
        layout = FrameLayout(viewport: Size(width: width, height: anchor.viewport.height), cards: cards,
                             selectedIndex: anchor.selectedIndex, itemCount: anchor.itemCount,
                             pageCount: anchor.pageCount, selectedPage: anchor.selectedPage, isMoving: false)
    }

    /// The column from which the window shows `frame`: each of its cards is the window's card of
    /// that picture, the same distance along. Of several such columns (a short playlist repeats
    /// its pictures), the one nearest `previous`, as the strip moves less than a page a frame.
    /// nil when the window does not hold the frame (it is not flat, or moved past the window).
    package func column(for frame: FrameLayout, near previous: Int) -> Int? {
        guard frame.viewport == anchor.viewport, Self.isFlat(frame), let lead = frame.cards.last else { return nil }
        var best: Int?
        for candidate in layout.cards where candidate.index == lead.index {
            let shift = candidate.x - lead.x
            let column = Int(shift.rounded())
            guard column >= 0, column <= width - viewWidth,
                  frame.cards.allSatisfy({ card in holds(card, shiftedBy: shift) }) else { continue }
            if best.map({ abs(column - previous) < abs($0 - previous) }) ?? true { best = column }
        }
        return best
    }

    /// The window has `card`'s picture, in its place and size, `shift` pixels along.
    private func holds(_ card: CardLayout, shiftedBy shift: Double) -> Bool {
        layout.cards.contains { $0.index == card.index && abs($0.x - card.x - shift) < 0.01 && $0.y == card.y
                                && $0.width == card.width && $0.height == card.height }
    }
}
