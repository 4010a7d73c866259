import CarouselEngine

/// Where the page dots go: a centred row, `dotSize` wide with `dotSpacing` between dots, its
/// centre line `dotsMargin` from the top or bottom edge. When there are more pages than fit
/// the width, a window of dots around the selected page is shown.
package struct DotsLayout: Equatable {
    package struct Dot: Equatable {
        package var centerX: Double
        package var centerY: Double
        package var active: Bool
    }
    package var dots: [Dot]
    package var size: Double

    /// `origin`: where the layout's viewport starts on the target (an output showing part of a
    /// wider or scaled screen: `ViewTransform`); the dots follow the viewport, not the target.
    package init(config: CarouselConfig, layout: FrameLayout, origin: (x: Double, y: Double) = (0, 0)) {
        size = config.dots.size
        guard config.dots.shown, layout.itemCount > 0, layout.pageCount > 0 else { dots = []; return }
        let pitch = config.dots.size + config.dots.spacing
        let room = max(1, Int((layout.viewport.width - 2 * config.dots.margin + config.dots.spacing) / pitch))
        let shown = min(layout.pageCount, room)
        let first = min(max(0, layout.selectedPage - shown / 2), layout.pageCount - shown)
        let rowWidth = Double(shown) * pitch - config.dots.spacing
        let left = (layout.viewport.width - rowWidth) / 2 + config.dots.size / 2
        let y = config.dots.position == .bottom ? layout.viewport.height - config.dots.margin : config.dots.margin
        dots = (0..<shown).map { i in
            Dot(centerX: left + Double(i) * pitch - origin.x, centerY: y - origin.y, active: first + i == layout.selectedPage)
        }
    }

    /// The pixels the row touches (empty when hidden).
    package var bounds: IntRect {
        guard let first = dots.first, let last = dots.last else { return IntRect(x: 0, y: 0, width: 0, height: 0) }
        return IntRect(enclosing: first.centerX - size / 2 - 1, first.centerY - size / 2 - 1,
                       last.centerX - first.centerX + size + 2, size + 2)
    }
}

extension DotsLayout {
    /// Where a target showing `before` must be drawn again to show `now` (these dots): all of
    /// `target`, but for a frame without cards over one without cards (the primary plane under
    /// cards on overlay planes, drawn again at each page change), which differ only where
    /// either's dots are.
    package func changedArea(from before: FrameLayout?, to now: FrameLayout, config: CarouselConfig,
                             origin: (x: Double, y: Double), target: IntRect) -> IntRect {
        guard let before, before.cards.isEmpty, now.cards.isEmpty else { return target }
        return bounds.union(DotsLayout(config: config, layout: before, origin: origin).bounds).intersection(target)
    }
}
