import CarouselCore
import CImaging
import CarouselEngine

/// Where the compositor gets pre-scaled cards. `ImageStore` is the real one; asking also
/// tells it what is on screen, so it can keep and prefetch the right neighbours.
package protocol CardSource: AnyObject {
    /// The ready cards for the layout's visible indices, a card's preview (`isPreview`, smaller
    /// than its rectangle) until the card is decoded; missing ones have neither yet (or failed)
    /// and are drawn in the background colour.
    func cards(for layout: FrameLayout) -> [Int: Card]
}

/// Draws one engine layout into an XRGB8888 buffer with pixman: background, cards (copied
/// when only translated, transformed when scaled, blended when faded), page dots.
///
/// The target is only ever written, never read: it may be a DRM dumb buffer, which is usually
/// uncached memory where reads are very slow. So every operation on the target is one that
/// ignores what is there: `pixman_fill` for the background, row copies for translated cards,
/// SRC compositing for scaled opaque cards (their bordered images blend the edges into the
/// background colour). Anything that must blend (faded cards, overlapping cards, the dots) is
/// composed in a small private strip buffer (`StripBuffer`), and its rows are then copied.
///
/// Scaled cards are sampled bilinearly, or nearest while the carousel moves fast (see
/// `ScaledSampling`); a frame drawn that way is redrawn bilinearly when the same layout is
/// composed again (`needsRefinement` says so).
///
/// Nothing is drawn when the target already shows the layout: the compositor remembers, per
/// target buffer, the last layout it drew, which of its cards were ready and how it sampled.
package final class Compositor {

    private let config: CarouselConfig
    private let source: CardSource
    private let background: UInt32
    private let dotStamp: DotStamp?
    private let stripBuffer = StripBuffer()
    private let stage = SourceStage()
    /// Cards at the side look, drawn once (nil when that look is the card itself).
    private let sideLookCards: SideLookCards?
    /// Cards within a pixel of the side look are copied from their image at that look; tests
    /// turn it off to compare.
    package var copiesSideLookCards = true
    /// Faded scaled cards sample a cached copy of their rows (`SourceStage`); tests turn it off
    /// to compare.
    package var stagesFadedCards = true
    private var lastDrawn: [TargetIdentity: DrawnState] = [:]
    /// The layout of the previous compose call, for the speed of the carousel.
    private var previousLayout: FrameLayout?
    /// False for still pictures (render, tests): every frame is sampled bilinearly.
    package let adaptsToMotion: Bool
    /// What the last frame drawn did: how it sampled its scaled cards (nil when it had none,
    /// copies only), and its card pixels drawn as copies and drawn scaled (for the benchmark).
    private var lastFrame: (sampling: ScaledSampling?, cardPixels: (copied: Int, scaled: Int)) = (nil, (0, 0))
    package var lastSampling: ScaledSampling? { lastFrame.sampling }
    package var lastCardPixels: (copied: Int, scaled: Int) { lastFrame.cardPixels }
    /// True when the last frame drawn used nearest sampling; composing the same layout again
    /// (once the carousel stops, e.g. under a resting finger) redraws it bilinearly.
    package var needsRefinement: Bool { lastSampling == .nearest }

    private struct DrawnState: Equatable {
        package var layout: FrameLayout
        package var ready: [Shown]
        package var sampling: ScaledSampling
    }

    /// What a card's rectangle showed: the full card replacing its preview is a change to draw.
    private enum Shown: Equatable {
        case background, preview, card

        package init(_ card: Card?) {
            guard let card else { self = .background; return }
            self = card.isPreview ? .preview : .card
        }
    }

    /// The targets' top-left corner in the layout's viewport: the origin of the output's
    /// `ViewTransform` (0 for a screen that shows the whole carousel), for the page dots.
    private let origin: (x: Double, y: Double)

    package init(config: CarouselConfig, store: CardSource, adaptsToMotion: Bool = true, origin: (x: Double, y: Double) = (0, 0)) {
        self.config = config
        self.origin = origin
        self.source = store
        self.adaptsToMotion = adaptsToMotion
        self.background = config.background.value | 0xFF00_0000
        self.dotStamp = DotStamp(diameter: config.dots.size)
        self.sideLookCards = SideLookCards(emphasis: config.emphasis)
    }

    /// Draws `layout` into `target`; returns false (and touches nothing) when `target` already
    /// shows exactly this layout with the same cards ready (a preview, scaled up to the card's
    /// rectangle like any card smaller than its rectangle, is not the same as the full card).
    @discardableResult
    package func compose(_ layout: FrameLayout, into target: PixelBuffer) -> Bool {
        // A layout without cards (the primary plane under cards on overlays) asks the store
        // nothing: it would take the visible cards for none and let their decodes go.
        let cards = layout.cards.isEmpty ? [:] : source.cards(for: layout)
        let dots = DotsLayout(config: config, layout: layout, origin: origin)
        let plan = CompositorPlan(
            layout: layout,
            sizes: layout.cards.map { card in cards[card.index].map { ($0.width, $0.height) } },
            sideLook: layout.cards.map { card in cards[card.index].flatMap { $0.isPreview || !copiesSideLookCards ? nil : sideLookCards?.look } },
            dots: dots.bounds, clip: IntRect(x: 0, y: 0, width: target.width, height: target.height))
        let sampling = adaptsToMotion && plan.hasScaledCards
            ? ScaledSampling.choose(previous: previousLayout, current: layout) : .bilinear
        previousLayout = layout
        let state = DrawnState(layout: layout, ready: layout.cards.map { Shown(cards[$0.index]) }, sampling: sampling)
        let before = lastDrawn[target.identity]
        if before == state { return false }
        guard let targetImage = pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(target.width), Int32(target.height),
                                                         target.base.assumingMemoryBound(to: UInt32.self),
                                                         Int32(target.stride)) else { return false }
        defer { pixman_image_unref(targetImage) }

        let frame = Frame(layout: layout, cards: cards, dots: dots, target: target, targetImage: targetImage,
                          filter: sampling.pixmanFilter)
        let area = dots.changedArea(from: before?.layout, to: layout, config: config, origin: origin,
                                    target: IntRect(x: 0, y: 0, width: target.width, height: target.height))
        fillBackground(target, within: area, except: plan.clusters.map(\.bounds))
        for cluster in plan.clusters { draw(cluster, frame) }
        if lastDrawn.count >= 8 { lastDrawn.removeAll() } // targets come and go (mode changes)
        lastDrawn[target.identity] = state
        lastFrame = (plan.hasScaledCards ? sampling : nil, plan.cardPixels)
        return true
    }

    /// Forgets what every target shows (after a config, playlist or output change).
    package func invalidate() { lastDrawn.removeAll(); previousLayout = nil; sideLookCards?.removeAll() }

    // MARK: - Drawing steps

    /// What one compose call draws from and into.
    private struct Frame {
        package var layout: FrameLayout
        package var cards: [Int: Card]
        package var dots: DotsLayout
        package var target: PixelBuffer
        package var targetImage: OpaquePointer
        /// pixman filter for scaled cards.
        package var filter: pixman_filter_t
        package func card(_ i: Int) -> Card? { cards[layout.cards[i].index] }
    }

    /// Card `i` of `frame` at the side look, placed at `origin`, with the columns `rect` shows
    /// made: each column once, as a scaled card is drawn (bilinear, its edges blended into the
    /// background), then faded.
    private func sideLookImage(_ i: Int, _ frame: Frame, at origin: (x: Int, y: Int), showing rect: IntRect) -> PixelImage? {
        guard let card = frame.card(i), let sideLookCards else { return nil }
        let columns = (rect.x - origin.x)..<(rect.maxX - origin.x)
        return sideLookCards.image(of: card, columns: columns, keeping: Array(frame.cards.values)) { card, image, made in
            scaleOpaque(card, origin: (0, 0), scale: (Double(image.width) / Double(card.width), Double(image.height) / Double(card.height)),
                        rect: IntRect(x: made.lowerBound, y: 0, width: made.count, height: image.height), offset: (0, 0),
                        filter: PIXMAN_FILTER_BILINEAR, into: image.pixman)
            Veil.fade(image.pixman, x: made.lowerBound, width: made.count, height: image.height,
                      opacity: sideLookCards.look.opacity, background: config.background)
        }
    }

    private func draw(_ cluster: CompositorPlan.Cluster, _ frame: Frame) {
        let bounds = cluster.bounds
        if cluster.entries.count == 1 {
            switch cluster.entries[0].item {
            case .translated(let i, let origin, let opacity) where opacity >= 1:
                if let card = frame.card(i) { copy(card, origin: origin, rect: bounds, into: frame.target) }
                return
            case .sideLook(let i, let origin):
                if let image = sideLookImage(i, frame, at: origin, showing: bounds) {
                    RowCopy.copy(from: image.base, stride: image.stride, at: bounds.x - origin.x, bounds.y - origin.y,
                                 to: frame.target.base, stride: frame.target.stride, at: bounds.x, bounds.y,
                                 width: bounds.width, height: bounds.height)
                }
                return
            case .scaled(let i, let origin, let scale, let opacity):
                guard let card = frame.card(i) else { return }
                if opacity >= 1 {
                    // Straight into the target: SRC never reads the destination.
                    scaleOpaque(card, origin: origin, scale: scale, rect: bounds, offset: (0, 0), filter: frame.filter,
                                into: frame.targetImage)
                } else {
                    stripBuffer.bands(of: bounds, into: frame.target) { band, strip in
                        self.scaleOpaque(card, origin: origin, scale: scale, rect: band, offset: (band.x, band.y),
                                         filter: frame.filter, into: strip.pixman, staged: self.stagesFadedCards)
                        Veil.fade(strip.pixman, width: band.width, height: band.height, opacity: opacity,
                                  background: self.config.background)
                    }
                }
                return
            default: break
            }
        }
        // Overlapping cards or the dots: blend everything in order over the background.
        stripBuffer.bands(of: bounds, into: frame.target) { band, strip in
            pixman_fill(strip.base.assumingMemoryBound(to: UInt32.self), Int32(strip.stride / 4), 32, 0, 0,
                        Int32(band.width), Int32(band.height), self.background)
            for entry in cluster.entries {
                let r = entry.rect.intersection(band)
                if r.isEmpty { continue }
                switch entry.item {
                case .translated(let i, let origin, let opacity):
                    guard let card = frame.card(i) else { continue }
                    self.withOpacityMask(opacity) { mask in
                        pixman_image_composite32(PIXMAN_OP_OVER, card.inner, mask, strip.pixman,
                                                 Int32(r.x - origin.x), Int32(r.y - origin.y), 0, 0,
                                                 Int32(r.x - band.x), Int32(r.y - band.y), Int32(r.width), Int32(r.height))
                    }
                case .sideLook(let i, let origin):
                    guard let image = self.sideLookImage(i, frame, at: origin, showing: r) else { continue }
                    pixman_image_composite32(PIXMAN_OP_SRC, image.pixman, nil, strip.pixman,
                                             Int32(r.x - origin.x), Int32(r.y - origin.y), 0, 0,
                                             Int32(r.x - band.x), Int32(r.y - band.y), Int32(r.width), Int32(r.height))
                case .scaled(let i, let origin, let scale, let opacity):
                    guard let card = frame.card(i) else { continue }
                    self.blendScaled(card, origin: origin, scale: scale, opacity: opacity, rect: r, band: band,
                                     filter: frame.filter, strip: strip)
                case .dots:
                    self.drawDots(frame.dots, rect: r, band: band, strip: strip)
                }
            }
        }
    }

    /// Fills `area` with the background, but for the `covered` rectangles (drawn over anyway).
    private func fillBackground(_ target: PixelBuffer, within area: IntRect, except covered: [IntRect]) {
        var region = pixman_region32_t()
        guard !area.isEmpty else { return }
        pixman_region32_init_rect(&region, Int32(area.x), Int32(area.y), UInt32(area.width), UInt32(area.height))
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
    private func copy(_ card: Card, origin: (x: Int, y: Int), rect: IntRect, into target: PixelBuffer) {
        RowCopy.copy(from: card.pictureBase, stride: card.stride, at: rect.x - origin.x, rect.y - origin.y,
                     to: target.base, stride: target.stride, at: rect.x, rect.y, width: rect.width, height: rect.height)
    }

    /// Scaled card over `rect` (target coordinates) with SRC from the bordered image: the
    /// edges blend into the border's background colour; nothing is read from `destination`,
    /// whose (0, 0) is target pixel `offset`. `staged`: sample a cached copy of the rows it
    /// reads (`SourceStage`), for a destination that is itself in cache.
    private func scaleOpaque(_ card: Card, origin: (x: Double, y: Double), scale: (x: Double, y: Double),
                             rect: IntRect, offset: (x: Int, y: Int), filter: pixman_filter_t,
                             into destination: OpaquePointer, staged: Bool = false) {
        // Destination pixel -> target pixel -> card pixel -> bordered image pixel (+1).
        let map = Affine.translation(1, 1)
            .after(.scale(1 / scale.x, 1 / scale.y))
            .after(.translation(Double(offset.x) - origin.x, Double(offset.y) - origin.y))
        let x = rect.x - offset.x, y = rect.y - offset.y
        var source = card.padded, sourceMap = map
        if staged {
            // The bordered pixels under the destination rectangle, with a pixel to spare each side.
            let from = map.apply(Double(x), Double(y)), to = map.apply(Double(x + rect.width), Double(y + rect.height))
            let left = Int(from.x.rounded(.down)) - 2, top = Int(from.y.rounded(.down)) - 2
            let region = IntRect(x: left, y: top, width: Int(to.x.rounded(.up)) + 2 - left, height: Int(to.y.rounded(.up)) + 2 - top)
            guard let copy = stage.copy(of: card.padded, region: region) else { return }
            source = copy.image
            sourceMap = Affine.translation(-Double(copy.at.x), -Double(copy.at.y)).after(map)
        }
        var transform = sourceMap.pixmanTransform
        // The image must outlive its raw pixman pointer: Swift may release `source` after its
        // last use as an object (Swift 6.0.3 did, freeing the staged copy mid-composite).
        withExtendedLifetime(source) {
            pixman_image_set_transform(source.pixman, &transform)
            pixman_image_set_filter(source.pixman, filter, nil, 0)
            pixman_image_set_repeat(source.pixman, PIXMAN_REPEAT_PAD)
            pixman_image_composite32(PIXMAN_OP_SRC, source.pixman, nil, destination, Int32(x), Int32(y), 0, 0, Int32(x), Int32(y),
                                     Int32(rect.width), Int32(rect.height))
            pixman_image_set_transform(source.pixman, nil)
        }
    }

    /// A scaled card blended over what the strip holds (overlapping cards), antialiased edges.
    private func blendScaled(_ card: Card, origin: (x: Double, y: Double), scale: (x: Double, y: Double),
                             opacity: Double, rect r: IntRect, band: IntRect, filter: pixman_filter_t, strip: PixelImage) {
        // Strip pixel -> target pixel -> card pixel.
        var transform = Affine.scale(1 / scale.x, 1 / scale.y)
            .after(.translation(Double(band.x) - origin.x, Double(band.y) - origin.y)).pixmanTransform
        pixman_image_set_transform(card.inner, &transform)
        pixman_image_set_filter(card.inner, filter, nil, 0)
        pixman_image_set_repeat(card.inner, PIXMAN_REPEAT_NONE)
        withOpacityMask(opacity) { mask in
            pixman_image_composite32(PIXMAN_OP_OVER, card.inner, mask, strip.pixman,
                                     Int32(r.x - band.x), Int32(r.y - band.y), 0, 0,
                                     Int32(r.x - band.x), Int32(r.y - band.y), Int32(r.width), Int32(r.height))
        }
        pixman_image_set_transform(card.inner, nil)
        pixman_image_set_filter(card.inner, PIXMAN_FILTER_NEAREST, nil, 0)
    }

    private func drawDots(_ dots: DotsLayout, rect r: IntRect, band: IntRect, strip: PixelImage) {
        guard let stamp = dotStamp else { return }
        for dot in dots.dots {
            let left = Int((dot.centerX - Double(stamp.side) / 2).rounded())
            let top = Int((dot.centerY - Double(stamp.side) / 2).rounded())
            let area = IntRect(x: left, y: top, width: stamp.side, height: stamp.side).intersection(r)
            if area.isEmpty { continue }
            let colour = dot.active ? config.dots.activeColor : config.dots.color
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

    /// Bytes held for the strip buffer (for tests).
    package var stripByteCount: Int { stripBuffer.byteCount }
}
