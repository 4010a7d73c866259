import CarouselEngine
import XCTest
@testable import CarouselPixels
import PixelsTestSupport
import TestSupport

/// The panned strip: every frame of a page change in a flat look is the window drawn at rest,
/// shown from a column, and equals that frame composed.
final class PanWindowTests: XCTestCase {
    let viewport = Size(width: 320, height: 180)

    func config(_ change: (inout CarouselConfig) -> Void = { _ in }) -> CarouselConfig {
        var c = CarouselConfig()
        c.cardWidth = .pixels(200)
        c.cardHeight = .pixels(120)
        c.spacing = 16
        c.emphasis.centerScale = 1
        c.emphasis.sideScale = 1
        c.emphasis.sideOpacity = 1
        c.dots.shown = false
        change(&c)
        return c
    }

    /// Five pictures of stripes that differ per picture, so a card in the wrong place shows.
    func cards(_ count: Int) -> FixedCards {
        FixedCards(Dictionary(uniqueKeysWithValues: (0..<count).map { i in
            (i, TestPictures.stripes([0xFF00_0000 | UInt32(40 * i + 30) << 16, 0xFF00_00F0 | UInt32(i * 50) << 8], width: 200, height: 120))
        }))
    }

    func window(_ engine: CarouselEngine) -> PanWindow? {
        PanWindow(anchor: engine.layout(), around: engine.restingLayouts(pagesAway: [-2, -1, 1, 2]))
    }

    /// `frame` composed, and the window composed and read from `column`: pixels that differ.
    func differingPixels(_ frame: FrameLayout, _ window: PanWindow, column: Int, _ source: FixedCards, config: CarouselConfig) -> Int {
        let direct = PixelImage(width: Int(viewport.width), height: Int(viewport.height))!
        Compositor(config: config, store: source, adaptsToMotion: false).compose(frame, into: direct.buffer)
        let wide = PixelImage(width: window.width, height: Int(viewport.height))!
        Compositor(config: config, store: source, adaptsToMotion: false).compose(window.layout, into: wide.buffer)
        var differing = 0
        for y in 0..<direct.height {
            for x in 0..<direct.width {
                let a = direct.base.load(fromByteOffset: y * direct.stride + x * 4, as: UInt32.self) & 0xFF_FFFF
                let b = wide.base.load(fromByteOffset: y * wide.stride + (x + column) * 4, as: UInt32.self) & 0xFF_FFFF
                if a != b { differing += 1 }
            }
        }
        return differing
    }

    /// A page change either way, a frame every 1/60 s: each frame is shown from a column of the
    /// window drawn at rest, the columns move one way, and each equals the frame composed, pixel
    /// for pixel.
    func testEveryFrameOfAPageChangeIsTheRestingWindowFromAColumn() throws {
        let config = config()
        let source = cards(5)
        for delta in [1, -1] {
            var engine = CarouselEngine(config: config, itemCount: 5, viewport: viewport, now: 0, startIndex: 2)
            let window = try XCTUnwrap(window(engine), "a flat look at rest has a window")
            XCTAssertEqual(window.restColumn, Int((216 * 1.25).rounded(.up)), "a page and a quarter either side")
            XCTAssertEqual(window.column(for: engine.layout(), near: 0), window.restColumn, "at rest: the rest column")
            _ = engine.page(by: delta, now: 0)
            var previous = window.restColumn, frames = 0
            for tick in 1...120 {
                _ = engine.update(now: Double(tick) / 60)
                let frame = engine.layout()
                guard frame.isMoving else { break }
                let column = try XCTUnwrap(window.column(for: frame, near: previous), "frame \(tick) is in the window")
                XCTAssert(delta > 0 ? column >= previous - 3 : column <= previous + 3, "frame \(tick): the strip moves one way (but for its overshoot)")
                let off = differingPixels(frame, window, column: column, source, config: config)
                XCTAssertEqual(off, 0, "frame \(tick) at column \(column): \(off) pixels differ from the frame composed")
                previous = column
                frames += 1
            }
            XCTAssertGreaterThan(frames, 10, "the page change had frames to show")
            XCTAssertEqual(previous, window.restColumn + delta * 216, accuracy: 3, "it ends a page along")
        }
    }

    /// Two pictures repeat along the strip: of the columns that show a frame, the one nearest the
    /// frame before.
    func testARepeatingPictureIsFollowedFromTheColumnBefore() throws {
        var engine = CarouselEngine(config: config(), itemCount: 2, viewport: viewport, now: 0, startIndex: 0)
        let window = try XCTUnwrap(window(engine))
        _ = engine.page(by: 1, now: 0)
        _ = engine.update(now: 0.05)
        let column = try XCTUnwrap(window.column(for: engine.layout(), near: window.restColumn))
        XCTAssertGreaterThan(column, window.restColumn)
        XCTAssertLessThan(column, window.restColumn + 216 / 2, "not the same pictures one repeat (432 px) along")
    }

    /// Looks that scale or fade cards, a fade, and frames past the window are composed.
    func testWhatAWindowCannotShow() throws {
        let scaled = CarouselEngine(config: config { $0.emphasis.sideScale = 0.85 }, itemCount: 5, viewport: viewport, now: 0, startIndex: 0)
        XCTAssertNil(window(scaled), "side cards scaled")
        let faded = CarouselEngine(config: config { $0.emphasis.sideOpacity = 0.5 }, itemCount: 5, viewport: viewport, now: 0, startIndex: 0)
        XCTAssertNil(window(faded), "side cards faded")

        var engine = CarouselEngine(config: config { $0.transition.style = .fade }, itemCount: 5, viewport: viewport, now: 0, startIndex: 0)
        let window = try XCTUnwrap(window(engine))
        _ = engine.page(by: 1, now: 0)
        _ = engine.update(now: 0.2)
        XCTAssertNil(window.column(for: engine.layout(), near: window.restColumn), "a fade's cards are translucent")

        var far = CarouselEngine(config: config(), itemCount: 7, viewport: viewport, now: 0, startIndex: 0)
        let farWindow = try XCTUnwrap(self.window(far))
        _ = far.page(by: 3, now: 0)
        var outside = 0
        for tick in 1...120 {
            _ = far.update(now: Double(tick) / 60)
            if far.layout().isMoving, farWindow.column(for: far.layout(), near: farWindow.restColumn) == nil { outside += 1 }
        }
        XCTAssertGreaterThan(outside, 5, "three pages along leaves the window: those frames are composed")
    }
}
