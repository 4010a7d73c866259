import CarouselEngine
import CarouselPixels

/// How several outputs show one carousel: the engine's viewport and each output's transform.
/// Pure, so the layout math is tested without screens.
package struct ScreenArrangement: Equatable, Sendable {
    /// The engine's viewport: the first output's size (mirror) or the wide virtual screen (span).
    package var viewport: Size
    /// One per output, in the order given; identity for an output that is not lit.
    package var transforms: [ViewTransform]

    /// Every output shows the whole carousel, laid out for the first lit output and scaled
    /// to fit each other one, centred (a 4K and a 1080p screen: scale 2; a 4:3 beside a 16:9
    /// one: letterboxed). Nil while no output is lit.
    package static func mirror(_ sizes: [Size?]) -> ScreenArrangement? {
        guard let base = sizes.lazy.compactMap({ $0 }).first else { return nil }
        let transforms = sizes.map { size -> ViewTransform in
            guard let size, size != base else { return .identity }
            let scale = min(size.width / base.width, size.height / base.height)
            // Whole-pixel margins keep unscaled cards on whole pixels.
            let marginX = ((size.width - base.width * scale) / 2).rounded(.down)
            let marginY = ((size.height - base.height * scale) / 2).rounded(.down)
            return ViewTransform(scale: scale, originX: -marginX, originY: -marginY)
        }
        return ScreenArrangement(viewport: base, transforms: transforms)
    }

    /// The outputs side by side, left to right in the given order, as one screen as wide as
    /// all of them and as high as the highest (a lower one shows the top part). An output
    /// that is not lit keeps its place at zero width, so the others do not shift. Nil while
    /// no output is lit.
    package static func span(_ sizes: [Size?]) -> ScreenArrangement? {
        guard sizes.contains(where: { $0 != nil }) else { return nil }
        var left = 0.0
        var transforms: [ViewTransform] = []
        for size in sizes {
            transforms.append(ViewTransform(scale: 1, originX: left, originY: 0))
            left += size?.width ?? 0
        }
        let height = sizes.compactMap { $0?.height }.max() ?? 0
        return ScreenArrangement(viewport: Size(width: left, height: height), transforms: transforms)
    }
}
