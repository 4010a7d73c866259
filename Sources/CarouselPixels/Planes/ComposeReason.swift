import CarouselEngine

/// Why a frame is composed on the CPU instead of put on overlay planes: the display backend's
/// answer to a frame state (`commit(_:_:)` in CarouselBackends). `kind` is what the log says
/// once per reload; `detail` carries the figures of the first time.
package struct ComposeReason: Equatable, Sendable, CustomStringConvertible {
    package enum Kind: Hashable, Sendable {
        /// The output has no overlay planes for cards: fbdev, Wayland, legacy KMS, `planes = "off"`,
        /// a rotated screen, or no overlay free.
        case noOverlayPlanes
        /// The screen is not lit: its first frame is a modeset with one composed picture.
        case notLit
        /// A card on screen is still decoding (a moment of start-up, not worth the log).
        case cardNotDecoded
        case tooManyCards
        case planesCannotScale
        case planesHaveNoAlpha
        /// The driver refused the cards in its atomic check.
        case driverRefused
        /// The output cannot pan the strip (fbdev, Wayland, another driver).
        case cannotPan
        /// The driver refused a panned frame (its memory full, say).
        case panRefused
    }

    package let kind: Kind
    package let detail: String

    package var description: String { detail }

    package static let noOverlayPlanes = ComposeReason(kind: .noOverlayPlanes, detail: "no overlay planes for cards")
    package static let notLit = ComposeReason(kind: .notLit, detail: "the screen is being lit")
    package static let cardNotDecoded = ComposeReason(kind: .cardNotDecoded, detail: "a card is not decoded yet")

    package static func tooManyCards(shown: Int, planes: Int) -> ComposeReason {
        ComposeReason(kind: .tooManyCards, detail: "\(shown) cards on screen, \(planes) overlay planes")
    }

    package static func planesCannotScale(scale: Double) -> ComposeReason {
        ComposeReason(kind: .planesCannotScale, detail: "the planes cannot scale (a card at \(formatNumber((scale * 1000).rounded() / 1000))x)")
    }

    package static func planesHaveNoAlpha(opacity: Double) -> ComposeReason {
        ComposeReason(kind: .planesHaveNoAlpha,
                      detail: "the planes have no alpha property (a card at opacity \(formatNumber((opacity * 1000).rounded() / 1000)))")
    }

    package static let cannotPan = ComposeReason(kind: .cannotPan, detail: "the screen cannot pan the strip")

    package static func panRefused(error: String) -> ComposeReason {
        ComposeReason(kind: .panRefused, detail: "the driver refused a panned frame (\(error))")
    }

    package static func driverRefused(cards: Int, error: String) -> ComposeReason {
        ComposeReason(kind: .driverRefused, detail: "the driver refused \(cards) cards on overlay planes (\(error))")
    }
}
