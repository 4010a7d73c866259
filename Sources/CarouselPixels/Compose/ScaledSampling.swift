import CImaging
import CarouselEngine

/// How a frame samples its scaled cards.
///
/// Bilinear is the quality filter; with pixman it costs about twice a nearest sample. Nearest is
/// used only while the strip moves fast: a display holds each frame for a whole refresh while
/// the eye follows the motion, which smears the picture over the distance moved per frame. From
/// `nearestFromPixelsPerFrame` (960 px/s at 60 Hz) that smear is 16 px or more, far wider than
/// nearest's half-pixel rounding, and each such frame is gone a refresh later. Slow or still
/// frames (the end of every settle, a finger resting on the strip) are always bilinear.
package enum ScaledSampling: Equatable {
    case bilinear
    case nearest

    package static let nearestFromPixelsPerFrame = 16.0

    /// The sampling for `current`, drawn right after `previous` (the frame before it on screen).
    package static func choose(previous: FrameLayout?, current: FrameLayout) -> ScaledSampling {
        guard current.isMoving, let previous, let speed = pixelsPerFrame(from: previous, to: current) else {
            return .bilinear
        }
        return speed >= nearestFromPixelsPerFrame ? .nearest : .bilinear
    }

    /// How far the centre-most card moved between two frames; nil when it was not on screen before.
    package static func pixelsPerFrame(from previous: FrameLayout, to current: FrameLayout) -> Double? {
        guard let centre = current.cards.last else { return nil }
        // Short playlists can show a picture twice: the nearest copy is the same card.
        return previous.cards.filter { $0.index == centre.index }
            .map { abs((centre.x + centre.width / 2) - ($0.x + $0.width / 2)) }.min()
    }

    package var pixmanFilter: pixman_filter_t {
        switch self {
        case .bilinear: PIXMAN_FILTER_BILINEAR
        case .nearest: PIXMAN_FILTER_NEAREST
        }
    }
}
