import CImaging
import CarouselEngine

/// Cards drawn once at the side look (`side_scale`, `side_opacity`), faded over the background
/// at their size there, so that a card at rest beside the centre, and through the ends of a
/// page change where it is within a pixel of that look, is a row copy like an unscaled card
/// rather than a scaled, faded compose every frame. A page change scales and fades only in its
/// middle: its spring spends about half its frames within a pixel of either end.
///
/// One image per full card (previews are not kept), for at most `capacity` cards: the ones of
/// the frame drawn last stay. Its columns are made by the compositor as frames first show them:
/// a card at rest beside the centre shows a few dozen of its columns, and a page change's ends
/// show little more. A pixel is the same whichever columns were made with it (pixman samples
/// each alone).
final class SideLookCards {
    let look: CompositorPlan.SideLook
    private var images: [ObjectIdentifier: (card: Card, image: PixelImage, made: Range<Int>)] = [:]
    static let capacity = 4

    /// nil when the side look is the card itself (scale and opacity 1): nothing to prepare.
    init?(emphasis: CardEmphasis) {
        let scale = max(0, emphasis.sideScale), opacity = min(1, max(0, emphasis.sideOpacity))
        guard scale > 0, opacity > 0, scale != 1 || opacity < 1 else { return nil }
        look = CompositorPlan.SideLook(scale: scale, opacity: opacity)
    }

    /// `card` at the side look (an image of `look.size`), with at least `columns` made: those
    /// not made yet are, by `make` (each a range of whole columns). `keeping` are the cards of
    /// the frame (kept first when the capacity is reached).
    func image(of card: Card, columns: Range<Int>, keeping frame: @autoclosure () -> [Card],
               make: (Card, PixelImage, Range<Int>) -> Void) -> PixelImage? {
        let key = ObjectIdentifier(card)
        guard var kept = images[key] ?? newImage(of: card, keeping: frame()) else { return nil }
        let wanted = columns.clamped(to: 0..<kept.image.width), made = kept.made
        if made.isEmpty {
            if !wanted.isEmpty { make(card, kept.image, wanted) }
            kept.made = wanted
        } else if !wanted.isEmpty {
            // The made columns stay one range: what lies between is made too.
            if wanted.lowerBound < made.lowerBound { make(card, kept.image, wanted.lowerBound..<made.lowerBound) }
            if wanted.upperBound > made.upperBound { make(card, kept.image, made.upperBound..<wanted.upperBound) }
            kept.made = min(wanted.lowerBound, made.lowerBound)..<max(wanted.upperBound, made.upperBound)
        }
        images[key] = kept
        return kept.image
    }

    private func newImage(of card: Card, keeping frame: [Card]) -> (card: Card, image: PixelImage, made: Range<Int>)? {
        if images.count >= Self.capacity {
            let current = Set(frame.map(ObjectIdentifier.init))
            images = images.filter { current.contains($0.key) }
            if images.count >= Self.capacity { images.removeAll() }
        }
        let (width, height) = look.size(of: (card.width, card.height))
        guard width > 0, height > 0, let image = PixelImage(width: width, height: height) else { return nil }
        return (card, image, 0..<0)
    }

    func removeAll() { images.removeAll() }
}

/// The background at 1 − opacity over pixels: opacity·pixel + (1 − opacity)·background, a card
/// faded over the background.
enum Veil {
    static func fade(_ image: OpaquePointer, x: Int = 0, width: Int, height: Int, opacity: Double, background: RGB) {
        let keep = 1 - max(0, min(1, opacity))
        func channel(_ v: UInt8) -> UInt16 { UInt16((Double(v) * 257 * keep).rounded()) }
        var colour = pixman_color_t(red: channel(background.red), green: channel(background.green),
                                    blue: channel(background.blue), alpha: UInt16((65535 * keep).rounded()))
        guard let veil = pixman_image_create_solid_fill(&colour) else { return }
        pixman_image_composite32(PIXMAN_OP_OVER, veil, nil, image, 0, 0, 0, 0, Int32(x), 0, Int32(width), Int32(height))
        pixman_image_unref(veil)
    }
}
