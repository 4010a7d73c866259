@testable import CarouselBackends
@testable import CarouselEngine
@testable import CarouselPixels
import XCTest
@testable import carouseld
import PixelsTestSupport

/// The parts of the plane path that run without a display: a planes frame flattened for a
/// screenshot, the primary plane's picture drawn without asking for cards, and the log that
/// says each way frames go once.
final class PlaneFrameTests: XCTestCase {
    private func solid(_ width: Int, _ height: Int, _ colour: UInt32) -> PixelImage {
        let image = PixelImage(width: width, height: height)!
        image.fill(colour)
        return image
    }

    func testAScreenshotOfAPlanesFrameShowsEachCardsCropAtItsPlaceOverThePrimary() {
        let primary = solid(100, 60, 0xFF10_1010)
        // A card whose left half is red and right half blue, cut by the screen's left edge:
        // only its right 30 columns show, at x 0...29.
        let card = solid(40, 20, 0xFFFF_0000)
        for y in 0..<20 { for x in 20..<40 { card.base.storeBytes(of: UInt32(0xFF00_00FF), toByteOffset: y * card.stride + x * 4, as: UInt32.self) } }
        let cut = PlacedCard(item: 0, source: (10, 0, 30, 20), destination: IntRect(x: 0, y: 5, width: 30, height: 20), alpha: 1)
        let whole = PlacedCard(item: 1, source: (0, 0, 40, 20), destination: IntRect(x: 50, y: 30, width: 40, height: 20), alpha: 1)
        let frame = PlaneFrameSnapshot.flatten(primary: primary.buffer, cards: [(cut, card.buffer), (whole, card.buffer)])!
        func rgb(_ x: Int, _ y: Int) -> UInt32 { frame.pixel(x: x, y: y) & 0xFF_FFFF }
        XCTAssertEqual(rgb(2, 10), 0xFF_0000, "column 10 of the card (red) at x 0")
        XCTAssertEqual(rgb(15, 10), 0x00_00FF, "column 25 of the card (blue) at x 15")
        XCTAssertEqual(rgb(35, 10), 0x10_1010, "the primary right of the cut card")
        XCTAssertEqual(rgb(15, 2), 0x10_1010, "the primary above it")
        XCTAssertEqual(rgb(55, 40), 0xFF_0000)
        XCTAssertEqual(rgb(85, 40), 0x00_00FF)
    }

    func testAHalfTransparentPlaneBlendsWithWhatIsUnderIt() {
        let primary = solid(20, 20, 0xFF00_0000)
        let card = solid(20, 20, 0xFFFF_FFFF)
        let half = PlacedCard(item: 0, source: (0, 0, 20, 20), destination: IntRect(x: 0, y: 0, width: 20, height: 20), alpha: 0.5)
        let frame = PlaneFrameSnapshot.flatten(primary: primary.buffer, cards: [(half, card.buffer)])!
        XCTAssertEqual(Double(frame.pixel(x: 10, y: 10) & 0xFF), 128, accuracy: 1)
    }

    func testThePrimaryPlanesPictureAsksTheStoreForNoCards() {
        // Asking the store with no card visible would let it drop the cards on the overlays.
        let source = FixedCards([0: solid(60, 40, 0xFFFF_0000)])
        var config = CarouselConfig()
        config.background = RGB(0x202020)
        config.dots.shown = false
        let compositor = Compositor(config: config, store: source)
        let target = solid(100, 60, 0)
        let bare = FrameLayout(viewport: Size(width: 100, height: 60), cards: [], selectedIndex: 0, itemCount: 1,
                               pageCount: 1, selectedPage: 0, isMoving: false)
        compositor.compose(bare, into: target.buffer)
        XCTAssertEqual(source.requests, 0)
        XCTAssertEqual(target.pixel(x: 50, y: 30) & 0xFF_FFFF, 0x20_2020, "the background is drawn")
    }

    /// Under cards on overlays, the primary plane is redrawn when its background changes: with
    /// the page, not each time the strip starts or stops moving (two full-screen fills a change).
    func testThePrimaryPlanesBackgroundChangesWithThePageNotWithMotion() {
        let card = CardLayout(index: 0, x: 10, y: 5, width: 60, height: 40, scale: 1, opacity: 1)
        func layout(page: Int, moving: Bool, cardX: Double) -> FrameLayout {
            var c = card
            c.x = cardX
            return FrameLayout(viewport: Size(width: 100, height: 60), cards: [c], selectedIndex: page, itemCount: 3,
                               pageCount: 3, selectedPage: page, isMoving: moving)
        }
        let resting = layout(page: 0, moving: false, cardX: 10)
        XCTAssertEqual(resting.background, layout(page: 0, moving: true, cardX: 40).background)
        XCTAssertNotEqual(resting.background, layout(page: 1, moving: true, cardX: 40).background)
        XCTAssertTrue(resting.background.cards.isEmpty)
    }

    /// A page change under cards on overlays draws the primary plane's new picture over its old
    /// one: only where the dots are, equal to the whole picture drawn afresh.
    func testThePrimaryPlanesNextPageRedrawsOnlyTheDots() {
        var config = CarouselConfig()
        config.background = RGB(0x202020)
        let compositor = Compositor(config: config, store: FixedCards([:]))
        func bare(page: Int) -> FrameLayout {
            FrameLayout(viewport: Size(width: 200, height: 120), cards: [], selectedIndex: page, itemCount: 5,
                        pageCount: 5, selectedPage: page, isMoving: false)
        }
        let target = solid(200, 120, 0)
        compositor.compose(bare(page: 0), into: target.buffer)
        let dots = DotsLayout(config: config, layout: bare(page: 0)).bounds
        XCTAssertFalse(dots.isEmpty)
        let marker: UInt32 = 0xFF12_3456
        target.base.storeBytes(of: marker, toByteOffset: 5 * target.stride + 5 * 4, as: UInt32.self)  // far from the dots
        XCTAssertTrue(compositor.compose(bare(page: 3), into: target.buffer))
        XCTAssertEqual(target.pixel(x: 5, y: 5), marker, "nothing outside the dots is drawn again")
        let fresh = solid(200, 120, 0)
        Compositor(config: config, store: FixedCards([:])).compose(bare(page: 3), into: fresh.buffer)
        for y in dots.y..<dots.maxY { for x in dots.x..<dots.maxX {
            XCTAssertEqual(target.pixel(x: x, y: y), fresh.pixel(x: x, y: y), "(\(x), \(y))")
        } }
        XCTAssertNotEqual(fresh.pixel(x: 5, y: 5), marker)
    }

    func testEachWayFramesGoIsSaidOnceWhateverItsDetails() {
        var log = FramePathLog()
        XCTAssertTrue(log.onPlanes(3, on: "Virtual-1"))
        XCTAssertFalse(log.onPlanes(2, on: "Virtual-1"))
        XCTAssertTrue(log.composing(.planesCannotScale(scale: 0.8), on: "Virtual-1"))
        XCTAssertFalse(log.composing(.planesCannotScale(scale: 0.93), on: "Virtual-1"), "a scale is a detail, not a new reason")
        XCTAssertTrue(log.composing(.tooManyCards(shown: 3, planes: 2), on: "Virtual-1"))
        XCTAssertFalse(log.composing(.cardNotDecoded, on: "Virtual-1"), "a card still decoding is start-up, not news")
    }
}
