import CarouselBackends
import CarouselConfig
import CarouselEngine
import CarouselPixels

/// What `render --output NAME` draws: the carousel that screen shows, as that screen shows it
/// (its part of a span, its scale of a mirror, its own playlist when independent).
struct ScreenPreview: Equatable, Sendable {
    var carousel: ScreenPlan.CarouselPlan
    /// The carousel's frame: the engine's viewport (a span: every screen side by side).
    var frame: Size
    var view: ViewTransform
    /// The picture written: this screen's size.
    var screen: Size

    /// `size` is this screen's size; the other screens of its carousel are taken at their
    /// table's `mode` (turned by its rotation), or at `size` when none is given.
    static func make(plan: ScreenPlan, output: String, size: Size) -> ScreenPreview? {
        guard let index = plan.screens.firstIndex(where: { $0.connector == output }),
              let carousel = plan.carousels.first(where: { $0.screens.contains(index) }),
              let position = carousel.screens.firstIndex(of: index) else { return nil }
        let sizes = carousel.screens.map { i -> Size in
            guard i != index, let mode = plan.screens[i].settings.mode.flatMap(DisplayMode.init(parsing:)) else { return size }
            let turned = plan.screens[i].settings.rotation % 180 != 0
            return Size(width: Double(turned ? mode.height : mode.width), height: Double(turned ? mode.width : mode.height))
        }
        guard let arrangement = plan.arrangement(of: carousel, sizes: sizes) else { return nil }
        return ScreenPreview(carousel: carousel, frame: arrangement.viewport, view: arrangement.transforms[position], screen: size)
    }
}
