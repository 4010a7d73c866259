@testable import CarouselCore
import CarouselEngine
import CImaging
import XCTest
@testable import CarouselPixels
import PixelsTestSupport
import TestSupport

/// The compositor against pictures computed independently: solid-colour cards at known
/// places, so every expected pixel is a colour, a blend, or the background.
final class CompositorTests: XCTestCase {
    let red: UInt32 = 0xC03030, green: UInt32 = 0x30C060, blue: UInt32 = 0x3050E0
    let background: UInt32 = 0x101010

    var config: CarouselConfig {
        var c = CarouselConfig()
        c.dots.size = 8; c.dots.spacing = 8; c.dots.margin = 16
        return c
    }

    func card(_ index: Int, x: Double, scale: Double = 1, opacity: Double = 1) -> CardLayout {
        CardLayout(index: index, x: x, y: 45, width: 160, height: 90, scale: scale, opacity: opacity)
    }

    func layout(_ cards: [CardLayout], selected: Int = 1, items: Int = 3) -> FrameLayout {
        FrameLayout(viewport: Size(width: 320, height: 180), cards: cards, selectedIndex: selected,
                    itemCount: items, pageCount: items, selectedPage: selected, isMoving: false)
    }

    func source() -> FixedCards {
        FixedCards([0: TestPictures.solid(red, width: 160, height: 90),
                    1: TestPictures.solid(green, width: 160, height: 90),
                    2: TestPictures.solid(blue, width: 160, height: 90)])
    }

    func render(_ layout: FrameLayout, config: CarouselConfig? = nil, source: CardSource? = nil) -> PixelImage {
        let frame = PixelImage(width: 320, height: 180)!
        XCTAssertTrue(Compositor(config: config ?? self.config, store: source ?? self.source()).compose(layout, into: frame.buffer))
        return frame
    }

    /// Left card translated and cut by the screen edge, centre card, right card scaled and faded, dots.
    func testSceneMatchesComputedPixels() {
        let frame = render(layout([card(0, x: -100), card(2, x: 260, scale: 0.5, opacity: 0.5), card(1, x: 80)]))
        assertColour(frame.pixel(x: 5, y: 5), background, "top-left background")
        assertColour(frame.pixel(x: 30, y: 90), red, "left card")
        assertColour(frame.pixel(x: 59, y: 90), red, "left card's last column")
        assertColour(frame.pixel(x: 60, y: 90), background, "gap after the left card")
        assertColour(frame.pixel(x: 80, y: 45), green, "centre card's top-left pixel")
        assertColour(frame.pixel(x: 239, y: 134), green, "centre card's bottom-right pixel")
        assertColour(frame.pixel(x: 79, y: 90), background, "left of the centre card")
        assertColour(frame.pixel(x: 240, y: 90), background, "right of the centre card")
        assertColour(frame.pixel(x: 160, y: 44), background, "above the centre card")
        // Right card: centre x 340, 80x45 after scaling, so 300..<380 × 67.5..<112.5, half opacity.
        assertColour(frame.pixel(x: 310, y: 90), blend(blue, over: background, opacity: 0.5), "faded scaled card")
        assertColour(frame.pixel(x: 298, y: 90), background, "left of the scaled card")
        assertColour(frame.pixel(x: 310, y: 66), background, "above the scaled card")
        assertColour(frame.pixel(x: 310, y: 70), blend(blue, over: background, opacity: 0.5), "inside the scaled card's top")
        // Dots: 3 pages, 8 px wide, 8 px apart, centred, centre line 16 px from the bottom.
        assertColour(frame.pixel(x: 160, y: 164), 0xFFFFFF, "active dot")
        assertColour(frame.pixel(x: 144, y: 164), 0x606060, "inactive dot")
        assertColour(frame.pixel(x: 176, y: 164), 0x606060, "inactive dot")
        assertColour(frame.pixel(x: 152, y: 164), background, "between dots")
        assertColour(frame.pixel(x: 160, y: 172), background, "below the dots")
    }

    func testScaledCentreCardIsDrawnOverItsNeighbour() {
        // The centre card grows to 200 px (60..<260) and overlaps the left card (-90..<70).
        let frame = render(layout([card(0, x: -90), card(1, x: 80, scale: 1.25)]))
        assertColour(frame.pixel(x: 30, y: 90), red, "left card outside the overlap")
        assertColour(frame.pixel(x: 65, y: 90), green, "centre card on top in the overlap")
        assertColour(frame.pixel(x: 160, y: 36), green, "centre card grown upwards (45 − 11.25)")
        assertColour(frame.pixel(x: 160, y: 32), background, "above the grown card")
    }

    func testTranslateOnlyFramesRoundToWholePixelsAndCopyExactly() {
        let picture = TestPictures.stripes([0x102030, 0x405060, 0x708090, 0xA0B0C0], width: 160, height: 90)
        let source = FixedCards([1: picture])
        let exact = render(layout([card(1, x: 80)]), source: source)
        let nearlyExact = render(layout([card(1, x: 80.4)]), source: source)
        XCTAssertEqual(bytes(exact), bytes(nearlyExact), "x 80.4 draws at 80")
        let moved = render(layout([card(1, x: 80.6)]), source: source)
        XCTAssertEqual(moved.pixel(x: 80, y: 90) & 0xFF_FFFF, background, "x 80.6 draws at 81")
        for x in 0..<160 {
            XCTAssertEqual(exact.pixel(x: 80 + x, y: 50) & 0xFF_FFFF, picture.pixel(x: x, y: 5) & 0xFF_FFFF,
                           "row copied unchanged at column \(x)")
        }
    }

    func testTargetIsOnlyWrittenNeverRead() {
        // Whatever the target held before, every pixel ends up the same: nothing is read back.
        let scene = layout([card(0, x: -100), card(2, x: 260, scale: 0.5, opacity: 0.5), card(1, x: 80, scale: 0.9, opacity: 0.8)])
        let clean = PixelImage(width: 320, height: 180)!
        let dirty = PixelImage(width: 320, height: 180)!
        dirty.fill(0xDEADBE)
        let source = source()
        XCTAssertTrue(Compositor(config: config, store: source).compose(scene, into: clean.buffer))
        XCTAssertTrue(Compositor(config: config, store: source).compose(scene, into: dirty.buffer))
        XCTAssertEqual(bytes(clean, opaque: true), bytes(dirty, opaque: true))
    }

    func testUnchangedLayoutDrawsNothing() {
        let source = source()
        let compositor = Compositor(config: config, store: source)
        let a = PixelImage(width: 320, height: 180)!, b = PixelImage(width: 320, height: 180)!
        let scene = layout([card(1, x: 80)])
        XCTAssertTrue(compositor.compose(scene, into: a.buffer))
        a.fill(0x00FF00) // a second draw would overwrite this
        XCTAssertFalse(compositor.compose(scene, into: a.buffer), "same layout, same target: no work")
        XCTAssertEqual(a.pixel(x: 5, y: 5) & 0xFF_FFFF, 0x00FF00, "nothing was drawn")
        XCTAssertTrue(compositor.compose(scene, into: b.buffer), "another target (the back buffer) still needs it")
        XCTAssertTrue(compositor.compose(layout([card(1, x: 81)]), into: a.buffer), "moved layout draws")
        compositor.invalidate()
        XCTAssertTrue(compositor.compose(layout([card(1, x: 81)]), into: a.buffer), "after invalidate it draws again")
    }

    func testCardArrivingLaterRedrawsTheSameLayout() {
        let source = FixedCards([:])
        let compositor = Compositor(config: config, store: source)
        let frame = PixelImage(width: 320, height: 180)!
        let scene = layout([card(1, x: 80)])
        XCTAssertTrue(compositor.compose(scene, into: frame.buffer))
        assertColour(frame.pixel(x: 160, y: 90), background, "card not ready: background-coloured card")
        source.set(1, TestPictures.solid(green, width: 160, height: 90))
        XCTAssertTrue(compositor.compose(scene, into: frame.buffer), "same layout, but the card arrived")
        assertColour(frame.pixel(x: 160, y: 90), green, "card drawn once ready")
    }

    func testDotsHiddenWhenDisabledOrNoImages() {
        var noDots = config
        noDots.dots.shown = false
        let hidden = render(layout([card(1, x: 80)]), config: noDots)
        assertColour(hidden.pixel(x: 160, y: 164), background, "dots = false")
        let empty = render(layout([], selected: 0, items: 0))
        for y in stride(from: 0, to: 180, by: 3) {
            for x in stride(from: 0, to: 320, by: 3) {
                XCTAssertEqual(empty.pixel(x: x, y: y) & 0xFF_FFFF, background, "empty playlist at \(x),\(y)")
            }
        }
    }

    func testDotsTopPositionAndWindowForLongPlaylists() {
        var top = config
        top.dots.position = .top
        let frame = render(layout([card(1, x: 80)]), config: top)
        assertColour(frame.pixel(x: 160, y: 16), 0xFFFFFF, "active dot at the top")
        // 300 pages do not fit 320 px: a window of dots around the selected page, centred.
        let many = DotsLayout(config: config, layout: layout([], selected: 150, items: 300))
        XCTAssertEqual(many.dots.count, 18) // (320 − 2·16 + 8) / 16
        XCTAssertEqual(many.dots.filter(\.active).count, 1)
        XCTAssertGreaterThanOrEqual(many.dots.first!.centerX - 4, 16)
        XCTAssertLessThanOrEqual(many.dots.last!.centerX + 4, 304)
    }

    /// A frame just before a loop re-centre and one just after are the same layout (cards
    /// carry playlist indices, not strip slots), so they render byte-identically.
    func testEqualLayoutsRenderByteIdentically() {
        let before = layout([card(2, x: -100), card(0, x: 260, scale: 0.85, opacity: 0.6), card(1, x: 80)])
        var after = before
        after.cards = before.cards.map { $0 } // rebuilt after re-centring: same indices and positions
        XCTAssertEqual(before, after)
        XCTAssertEqual(bytes(render(before), opaque: true), bytes(render(after), opaque: true))
    }

    /// Bands are about `StripBuffer.bytes` whatever the clusters' shapes: a tall narrow one and a wide
    /// one do not make the strip as wide as one and as tall as the other.
    func testStripBufferStaysAboutStripBytes() {
        let source = FixedCards([0: TestPictures.solid(red, width: 1900, height: 300),
                                 1: TestPictures.solid(blue, width: 40, height: 300)])
        let wide = CardLayout(index: 0, x: 50, y: 50, width: 1900, height: 300, scale: 1, opacity: 0.5)
        let narrow = CardLayout(index: 1, x: -30, y: 50, width: 40, height: 300, scale: 1, opacity: 0.5)
        let scene = FrameLayout(viewport: Size(width: 2000, height: 400), cards: [narrow, wide], selectedIndex: 0,
                                itemCount: 2, pageCount: 2, selectedPage: 0, isMoving: false)
        var noDots = config
        noDots.dots.shown = false
        let compositor = Compositor(config: noDots, store: source)
        let frame = PixelImage(width: 2000, height: 400)!
        XCTAssertTrue(compositor.compose(scene, into: frame.buffer))
        assertColour(frame.pixel(x: 5, y: 200), blend(blue, over: background, opacity: 0.5), "narrow faded card")
        assertColour(frame.pixel(x: 1000, y: 200), blend(red, over: background, opacity: 0.5), "wide faded card")
        XCTAssertGreaterThan(compositor.stripByteCount, 0)
        XCTAssertLessThanOrEqual(compositor.stripByteCount, StripBuffer.bytes + 1900 * 4, "not 1900 px wide × 300 rows")
    }

    func testRowCopyMovesOnlyTheRectangle() {
        let source = TestPictures.stripes([0x102030, 0x405060, 0x708090, 0xA0B0C0], width: 8, height: 5)
        let target = PixelImage(width: 13, height: 7)! // another stride
        target.fill(0x000000)
        RowCopy.copy(from: source.base, stride: source.stride, at: 2, 1, to: target.base, stride: target.stride, at: 9, 4,
                     width: 4, height: 3)
        for y in 0..<7 {
            for x in 0..<13 {
                let inside = (9..<13).contains(x) && (4..<7).contains(y)
                let expected = inside ? source.pixel(x: x - 9 + 2, y: y - 4 + 1) : 0xFF00_0000
                XCTAssertEqual(target.pixel(x: x, y: y), expected, "pixel \(x),\(y)")
            }
        }
    }

    func bytes(_ image: PixelImage, opaque: Bool = false) -> [UInt32] {
        (0..<image.height).flatMap { y in
            (0..<image.width).map { x in image.pixel(x: x, y: y) & (opaque ? 0xFF_FFFF : 0xFFFF_FFFF) }
        }
    }
}
