@testable import CarouselBackends
import CarouselEngine
import XCTest
@testable import CarouselPixels

final class ScreenArrangementTests: XCTestCase {
    private func size(_ w: Double, _ h: Double) -> Size { Size(width: w, height: h) }
    private func card(x: Double, width: Double = 800) -> CardLayout {
        CardLayout(index: 0, x: x, y: 100, width: width, height: 600, scale: 1, opacity: 1)
    }
    private func layout(_ viewport: Size, _ cards: [CardLayout]) -> FrameLayout {
        FrameLayout(viewport: viewport, cards: cards, selectedIndex: 0, itemCount: 3, pageCount: 3, selectedPage: 0,
                    isMoving: false)
    }

    func testSpanPutsOutputsSideBySideAsOneWideScreen() throws {
        let arranged = try XCTUnwrap(ScreenArrangement.span([size(1024, 768), size(1280, 800)]))
        XCTAssertEqual(arranged.viewport, size(2304, 800), "as wide as both, as high as the highest")
        XCTAssertEqual(arranged.transforms.map(\.originX), [0, 1024])
        XCTAssertEqual(arranged.transforms.map(\.scale), [1, 1])
    }

    func testSpanKeepsTheOrderGivenNotTheSizeOrder() throws {
        let arranged = try XCTUnwrap(ScreenArrangement.span([size(1920, 1080), size(1024, 768), size(800, 600)]))
        XCTAssertEqual(arranged.transforms.map(\.originX), [0, 1920, 2944])
        XCTAssertEqual(arranged.viewport, size(3744, 1080))
    }

    func testSpanWithAnUnlitOutputShowsTheOthersAndWaitsWithNoneLit() throws {
        let arranged = try XCTUnwrap(ScreenArrangement.span([nil, size(1024, 768)]))
        XCTAssertEqual(arranged.viewport, size(1024, 768))
        XCTAssertEqual(arranged.transforms[1].originX, 0)
        XCTAssertNil(ScreenArrangement.span([nil, nil]))
    }

    func testACardCrossingTheSeamIsCutExactlyAtIt() throws {
        let arranged = try XCTUnwrap(ScreenArrangement.span([size(1024, 768), size(1024, 768)]))
        let wide = layout(arranged.viewport, [card(x: 624.25)])
        let left = arranged.transforms[0].apply(wide), right = arranged.transforms[1].apply(wide)
        XCTAssertEqual(left.cards[0].x, 624.25)
        XCTAssertEqual(right.cards[0].x, 624.25 - 1024, "the right screen sees the card's right part, shifted by whole pixels")
        XCTAssertEqual(right.cards[0].x + right.cards[0].width, 400.25)
        XCTAssertEqual(right.viewport, arranged.viewport, "dots are placed on the whole virtual screen")
    }

    func testMirrorOfTheSameSizeIsTheIdentity() throws {
        let arranged = try XCTUnwrap(ScreenArrangement.mirror([size(1024, 768), size(1024, 768)]))
        XCTAssertEqual(arranged.viewport, size(1024, 768))
        XCTAssertEqual(arranged.transforms, [.identity, .identity])
    }

    func testMirrorScalesEachOutputToItsOwnSize() throws {
        // A 1080p screen beside a 4K one: the 4K one shows everything twice as large.
        let arranged = try XCTUnwrap(ScreenArrangement.mirror([size(1920, 1080), size(3840, 2160)]))
        XCTAssertEqual(arranged.viewport, size(1920, 1080))
        XCTAssertEqual(arranged.transforms[1], ViewTransform(scale: 2, originX: 0, originY: 0))
        let big = arranged.transforms[1].apply(layout(arranged.viewport, [card(x: 560)]))
        XCTAssertEqual(big.cards[0].width, 1600, "cards sized for the 4K screen: decoded at that size")
        XCTAssertEqual(big.cards[0].x, 1120)
    }

    func testMirrorOfADifferentShapeIsLetterboxedAndCentred() throws {
        let arranged = try XCTUnwrap(ScreenArrangement.mirror([size(1920, 1080), size(1024, 768)]))
        let t = arranged.transforms[1]
        XCTAssertEqual(t.scale, 1024.0 / 1920, accuracy: 1e-12)
        XCTAssertEqual(t.originX, 0)
        XCTAssertEqual(t.originY, -96, "(768 - 1080 × 0.533) / 2 margin above and below")
    }

    func testMirrorLaysOutForTheFirstLitOutput() throws {
        let arranged = try XCTUnwrap(ScreenArrangement.mirror([nil, size(1280, 800), size(1920, 1200)]))
        XCTAssertEqual(arranged.viewport, size(1280, 800))
        XCTAssertEqual(arranged.transforms[2].scale, 1.5)
        XCTAssertNil(ScreenArrangement.mirror([nil]))
    }

    func testATouchOnAnOutputMapsBackToWhereItShowsTheCarousel() throws {
        let span = try XCTUnwrap(ScreenArrangement.span([size(1024, 768), size(1024, 768)]))
        let p = span.transforms[1].toEngine(x: 100, y: 50)
        XCTAssertEqual(p.x, 1124)
        XCTAssertEqual(p.y, 50)
        let mirror = try XCTUnwrap(ScreenArrangement.mirror([size(1920, 1080), size(1024, 768)]))
        let q = mirror.transforms[1].toEngine(x: 512, y: 384)
        XCTAssertEqual(q.x, 960, accuracy: 1e-9, "the centre of one screen is the centre of the other")
        XCTAssertEqual(q.y, 540, accuracy: 1e-9)
    }
}
