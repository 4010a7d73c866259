/// Which page a released drag settles on.
struct PagingRules: Sendable, Equatable {
    /// Finger speed in px/s at or above which a release pages in its direction.
    var flingVelocity: Double
    /// Fraction of the way to the next page that a slow drag must cover to page.
    var pageThreshold: Double
    var maxPagesPerGesture: Int

    /// Fastest release velocity believed, px/s (Android's maximum fling velocity is 8000 dp/s).
    static let maxVelocity = 8000.0

    static func clampVelocity(_ v: Double) -> Double { min(max(v, -maxVelocity), maxVelocity) }

    init(config: CarouselConfig) {
        flingVelocity = config.gesture.flingVelocity
        pageThreshold = config.gesture.pageThreshold
        maxPagesPerGesture = max(1, config.gesture.maxPagesPerGesture)
    }

    /// The target page for a release at `position` of a gesture that began at `startPosition`
    /// on `startPage`, with the finger moving at `velocityX` px/s (negative = leftwards, which
    /// moves the strip forward).
    func releaseTarget(on strip: Strip, position: Double, startPosition: Double, startPage: Int,
                       velocityX: Double) -> Int {
        guard strip.loops else { return strip.realPages.lowerBound }
        let below = strip.pageAtOrBefore(position)
        let progress = strip.progress(position, from: below)
        var target: Int
        if abs(velocityX) >= flingVelocity {
            // A fling goes to the next page in its direction from where the strip is
            // (like ViewPager), never back against it.
            target = velocityX < 0 ? below + 1 : (progress > 0 ? below : below - 1)
        } else if position > startPosition {
            target = progress >= pageThreshold ? below + 1 : below
        } else if position < startPosition {
            target = 1 - progress >= pageThreshold ? below : below + 1
        } else {
            target = strip.nearestPage(position)
        }
        // Flings that skip pages are a known complaint: cap the move per gesture.
        return min(max(target, startPage - maxPagesPerGesture), startPage + maxPagesPerGesture)
    }
}
