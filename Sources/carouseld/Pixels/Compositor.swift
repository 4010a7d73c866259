import CImaging
import CarouselEngine

/// Draws one engine layout into an XRGB8888 buffer with pixman: background, cards (copied
/// when only translated, transformed when scaled, blended when faded), page dots.
///
/// The target is only ever written, never read: it may be a DRM dumb buffer, which is usually
/// uncached memory where reads are very slow. Direct cards are copied with `pixman_blt`, the
/// background is filled with `pixman_fill`, and every region that needs blending is composed
/// in a small private strip buffer (cache-resident) and then copied row by row.
///
/// Nothing is drawn when the target already shows the layout: the compositor remembers, per
/// target buffer, the last layout it drew and which of its cards were ready.
final class Compositor {
    /// Rows of the private strip buffer are sized to about this many bytes (fits in L2).
    static let stripBytes = 256 * 1024

    private let config: CarouselConfig
    private let source: CardSource
    private let background: UInt32
    private let dotStamp: DotStamp?
    private var strip: PixelImage?
    private var lastDrawn: [TargetIdentity: DrawnState] = [:]

    private struct DrawnState: Equatable {
        var layout: FrameLayout
        var ready: [Bool]
    }

    init(config: CarouselConfig, store: CardSource) {
        self.config = config
        self.source = store
        self.background = config.background.value | 0xFF00_0000
        self.dotStamp = DotStamp(diameter: config.dotSize)
    }

    /// Draws `layout` into `target`; returns false (and touches nothing) when `target` already
    /// shows exactly this layout with the same cards ready.
    @discardableResult
    func compose(_ layout: FrameLayout, into target: PixelBuffer) -> Bool {
        let cards = source.cards(for: layout)
        let ready = layout.cards.map { cards[$0.index] != nil }
        let state = DrawnState(layout: layout, ready: ready)
        if lastDrawn[target.identity] == state { return false }

        let dots = DotsLayout(config: config, layout: layout)
        let plan = CompositorPlan(
            layout: layout,
            sizes: layout.cards.map { card in cards[card.index].map { ($0.width, $0.height) } },
            dots: dots.bounds, clip: IntRect(x: 0, y: 0, width: target.width, height: target.height))
        fillBackground(target, except: plan.clusters.map(\.bounds))
        for cluster in plan.clusters {
            if cluster.entries.count == 1, cluster.entries[0].isDirect,
               case .translated(let i, let origin, _) = cluster.entries[0].item, let card = cards[layout.cards[i].index] {
                copy(card, origin: origin, rect: cluster.bounds, into: target)
            } else {
                composeInStrips(cluster, layout: layout, cards: cards, dots: dots, into: target)
            }
        }
        if lastDrawn.count >= 8 { lastDrawn.removeAll() } // targets come and go (mode changes)
        lastDrawn[target.identity] = state
        return true
    }

    /// Forgets what every target shows (after a config, playlist or output change).
    func invalidate() { lastDrawn.removeAll() }

    // MARK: - Drawing steps

    private func fillBackground(_ target: PixelBuffer, except covered: [IntRect]) {
        var region = pixman_region32_t()
        pixman_region32_init_rect(&region, 0, 0, UInt32(target.width), UInt32(target.height))
        defer { pixman_region32_fini(&region) }
        for rect in covered {
            var hole = pixman_region32_t()
            pixman_region32_init_rect(&hole, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height))
            _ = withUnsafeMutablePointer(to: &region) { pixman_region32_subtract($0, $0, &hole) }
            pixman_region32_fini(&hole)
        }
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(&region, &count) else { return }
        let bits = target.base.assumingMemoryBound(to: UInt32.self)
        for box in UnsafeBufferPointer(start: boxes, count: Int(count)) {
            pixman_fill(bits, Int32(target.stride / 4), 32, box.x1, box.y1, box.x2 - box.x1, box.y2 - box.y1, background)
        }
    }

    /// Translate-only opaque card: a row copy, no filtering, no blending.
    private func copy(_ card: PixelImage, origin: (x: Int, y: Int), rect: IntRect, into target: PixelBuffer) {
        let copied = pixman_blt(card.base.assumingMemoryBound(to: UInt32.self),
                                target.base.assumingMemoryBound(to: UInt32.self),
                                Int32(card.stride / 4), Int32(target.stride / 4), 32, 32,
                                Int32(rect.x - origin.x), Int32(rect.y - origin.y), Int32(rect.x), Int32(rect.y),
                                Int32(rect.width), Int32(rect.height))
        if copied == 0 { Log.debug("pixman_blt refused a \(rect.width)x\(rect.height) copy") }
    }

    private func composeInStrips(_ cluster: CompositorPlan.Cluster, layout: FrameLayout, cards: [Int: PixelImage],
                                 dots: DotsLayout, into target: PixelBuffer) {
        let bounds = cluster.bounds
        let rows = max(8, Self.stripBytes / (bounds.width * 4))
        guard let strip = stripBuffer(width: bounds.width, height: rows) else {
            Log.error("out of memory for a \(bounds.width)x\(rows) strip buffer")
            return
        }
        let stripBits = strip.base.assumingMemoryBound(to: UInt32.self)
        for top in stride(from: bounds.y, to: bounds.maxY, by: rows) {
            let band = IntRect(x: bounds.x, y: top, width: bounds.width, height: min(rows, bounds.maxY - top))
            pixman_fill(stripBits, Int32(strip.stride / 4), 32, 0, 0, Int32(band.width), Int32(band.height), background)
            for entry in cluster.entries {
                let r = entry.rect.intersection(band)
                if r.isEmpty { continue }
                switch entry.item {
                case .translated(let i, let origin, let opacity):
                    guard let card = cards[layout.cards[i].index] else { continue }
                    withOpacityMask(opacity) { mask in
                        pixman_image_composite32(PIXMAN_OP_OVER, card.pixman, mask, strip.pixman,
                                                 Int32(r.x - origin.x), Int32(r.y - origin.y), 0, 0,
                                                 Int32(r.x - band.x), Int32(r.y - band.y), Int32(r.width), Int32(r.height))
                    }
                case .scaled(let i, let origin, let scale, let opacity):
                    guard let card = cards[layout.cards[i].index] else { continue }
                    drawScaled(card, origin: origin, scale: scale, opacity: opacity, rect: r, band: band, strip: strip)
                case .dots:
                    drawDots(dots, rect: r, band: band, strip: strip)
                }
            }
            pixman_blt(stripBits, target.base.assumingMemoryBound(to: UInt32.self),
                       Int32(strip.stride / 4), Int32(target.stride / 4), 32, 32,
                       0, 0, Int32(band.x), Int32(band.y), Int32(band.width), Int32(band.height))
        }
    }

    /// A card scaled about its centre, bilinear, with soft (antialiased) edges over the strip.
    private func drawScaled(_ card: PixelImage, origin: (x: Double, y: Double), scale: (x: Double, y: Double),
                            opacity: Double, rect r: IntRect, band: IntRect, strip: PixelImage) {
        // Strip pixel -> target pixel -> card pixel.
        var transform = Affine.scale(1 / scale.x, 1 / scale.y)
            .after(.translation(Double(band.x) - origin.x, Double(band.y) - origin.y)).pixmanTransform
        pixman_image_set_transform(card.pixman, &transform)
        pixman_image_set_filter(card.pixman, PIXMAN_FILTER_BILINEAR, nil, 0)
        pixman_image_set_repeat(card.pixman, PIXMAN_REPEAT_NONE)
        withOpacityMask(opacity) { mask in
            pixman_image_composite32(PIXMAN_OP_OVER, card.pixman, mask, strip.pixman,
                                     Int32(r.x - band.x), Int32(r.y - band.y), 0, 0,
                                     Int32(r.x - band.x), Int32(r.y - band.y), Int32(r.width), Int32(r.height))
        }
        pixman_image_set_transform(card.pixman, nil)
    }

    private func drawDots(_ dots: DotsLayout, rect r: IntRect, band: IntRect, strip: PixelImage) {
        guard let stamp = dotStamp else { return }
        for dot in dots.dots {
            let left = Int((dot.centerX - Double(stamp.side) / 2).rounded())
            let top = Int((dot.centerY - Double(stamp.side) / 2).rounded())
            let area = IntRect(x: left, y: top, width: stamp.side, height: stamp.side).intersection(r)
            if area.isEmpty { continue }
            let colour = dot.active ? config.dotActiveColor : config.dotColor
            var pixmanColour = pixman_color_t(red: UInt16(colour.red) * 257, green: UInt16(colour.green) * 257,
                                              blue: UInt16(colour.blue) * 257, alpha: 0xFFFF)
            guard let fill = pixman_image_create_solid_fill(&pixmanColour) else { continue }
            pixman_image_composite32(PIXMAN_OP_OVER, fill, stamp.mask.pixman, strip.pixman, 0, 0,
                                     Int32(area.x - left), Int32(area.y - top),
                                     Int32(area.x - band.x), Int32(area.y - band.y), Int32(area.width), Int32(area.height))
            pixman_image_unref(fill)
        }
    }

    /// Constant opacity as a solid alpha mask; nil (no mask) when opaque.
    private func withOpacityMask(_ opacity: Double, _ body: (OpaquePointer?) -> Void) {
        guard opacity < 1 else { body(nil); return }
        var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((max(0, opacity) * 65535).rounded()))
        let mask = pixman_image_create_solid_fill(&alpha)
        body(mask)
        if let mask { pixman_image_unref(mask) }
    }

    private func stripBuffer(width: Int, height: Int) -> PixelImage? {
        if let strip, strip.width >= width, strip.height >= height { return strip }
        strip = PixelImage(width: max(width, strip?.width ?? 0), height: max(height, strip?.height ?? 0))
        return strip
    }
}
