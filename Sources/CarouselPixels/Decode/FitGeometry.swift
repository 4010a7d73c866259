import CarouselEngine

/// Where a picture lands inside its card for a fit mode: `cover` fills the card and crops the
/// overflow, `contain` shows all of it and leaves background-coloured bars.
package struct FitPlacement: Equatable {
    /// Card pixels per (upright, full-size) picture pixel.
    package var scale: Double
    /// The scaled picture's rectangle in card coordinates (may exceed the card for cover).
    package var x: Double, y: Double, width: Double, height: Double

    package init(imageWidth: Int, imageHeight: Int, cardWidth: Int, cardHeight: Int, fit: FitMode) {
        let sx = Double(cardWidth) / Double(imageWidth), sy = Double(cardHeight) / Double(imageHeight)
        scale = fit == .cover ? max(sx, sy) : min(sx, sy)
        width = Double(imageWidth) * scale
        height = Double(imageHeight) * scale
        x = (Double(cardWidth) - width) / 2
        y = (Double(cardHeight) - height) / 2
    }

    /// The part of the card the picture covers, in whole pixels (the rest is background).
    package func coveredPixels(cardWidth: Int, cardHeight: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let left = max(0, Int(x.rounded())), top = max(0, Int(y.rounded()))
        let right = min(cardWidth, Int((x + width).rounded())), bottom = min(cardHeight, Int((y + height).rounded()))
        return (left, top, max(0, right - left), max(0, bottom - top))
    }
}

/// libjpeg-turbo's DCT scaling: the smallest of 1/8, 1/4, 1/2, 1/1 that still gives at least
/// `needed` × the full size (so the one pixman resample afterwards only shrinks or keeps).
package struct JPEGScale: Equatable {
    package var num: Int
    package var denom: Int

    package init(num: Int, denom: Int) { self.num = num; self.denom = denom }

    package static let candidates = [JPEGScale(num: 1, denom: 8), JPEGScale(num: 1, denom: 4),
                             JPEGScale(num: 1, denom: 2), JPEGScale(num: 1, denom: 1)]

    /// TJSCALED: libjpeg-turbo rounds scaled dimensions up.
    package func scaled(_ dimension: Int) -> Int { (dimension * num + denom - 1) / denom }

    /// `needed` is the fit scale from the full-size picture to the card; `available` the
    /// factors the library offers (tjGetScalingFactors).
    package static func choose(width: Int, height: Int, needed: Double, available: [JPEGScale]) -> JPEGScale {
        // Pixels the card needs along each axis, with a hair of tolerance for rounding.
        let needW = Double(width) * needed - 1e-6, needH = Double(height) * needed - 1e-6
        for c in candidates where available.contains(c) {
            if Double(c.scaled(width)) >= needW && Double(c.scaled(height)) >= needH { return c }
        }
        return JPEGScale(num: 1, denom: 1)
    }
}
