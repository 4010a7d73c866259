import CImaging
import CarouselEngine

/// Cards drawn once at the side look (`side_scale`, `side_opacity`), faded over the background
/// at their size there, so that a card at rest beside the centre, and through the ends of a
/// page change where it is within a pixel of that look, is a row copy like an unscaled card
/// rather than a scaled, faded compose every frame. A page change scales and fades only in its
/// middle: its spring spends about half its frames within a pixel of either end.
///
/// One image per full card (previews are not kept), made by the compositor the first time a
/// frame asks for it, for at most `capacity` cards: the ones of the frame drawn last stay.
final class SideLookCards {
    let look: CompositorPlan.SideLook
    private var images: [ObjectIdentifier: (card: Card, image: PixelImage)] = [:]
    static let capacity = 4

    /// nil when the side look is the card itself (scale and opacity 1): nothing to prepare.
    init?(emphasis: CardEmphasis) {
        let scale = max(0, emphasis.sideScale), opacity = min(1, max(0, emphasis.sideOpacity))
        guard scale > 0, opacity > 0, scale != 1 || opacity < 1 else { return nil }
        look = CompositorPlan.SideLook(scale: scale, opacity: opacity)
    }

    /// `card` at the side look, made by `make` (into an image of `look.size`) if it is not kept
    /// yet; `keeping` are the cards of the frame (kept first when the capacity is reached).
    func image(of card: Card, keeping frame: @autoclosure () -> [Card], make: (Card, PixelImage) -> Void) -> PixelImage? {
        let key = ObjectIdentifier(card)
        if let kept = images[key] { return kept.image }
        if images.count >= Self.capacity {
            let current = Set(frame().map(ObjectIdentifier.init))
            images = images.filter { current.contains($0.key) }
            if images.count >= Self.capacity { images.removeAll() }
        }
        let (width, height) = look.size(of: (card.width, card.height))
        guard width > 0, height > 0, let image = PixelImage(width: width, height: height) else { return nil }
        make(card, image)
        images[key] = (card, image)
        return image
    }

    func removeAll() { images.removeAll() }
}

/// The background at 1 − opacity over pixels: opacity·pixel + (1 − opacity)·background, a card
/// faded over the background.
enum Veil {
    static func fade(_ image: OpaquePointer, width: Int, height: Int, opacity: Double, background: RGB) {
        let keep = 1 - max(0, min(1, opacity))
        func channel(_ v: UInt8) -> UInt16 { UInt16((Double(v) * 257 * keep).rounded()) }
        var colour = pixman_color_t(red: channel(background.red), green: channel(background.green),
                                    blue: channel(background.blue), alpha: UInt16((65535 * keep).rounded()))
        guard let veil = pixman_image_create_solid_fill(&colour) else { return }
        pixman_image_composite32(PIXMAN_OP_OVER, veil, nil, image, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
        pixman_image_unref(veil)
    }
}
