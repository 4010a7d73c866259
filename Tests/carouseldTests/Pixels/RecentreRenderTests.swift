@testable import CarouselCore
import CarouselEngine
import XCTest
@testable import CarouselEngine
@testable import carouseld
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// The loop seam: paging forward from the last picture settles in the strip's right clone and
/// the engine re-centres into the real copy in the same update. The frame just before the
/// re-centre (the clone position at rest) and the one just after must be the same pixels, and
/// the compositor must not even redraw.
final class RecentreRenderTests: XCTestCase {
    func testFramesAroundTheLoopRecentreAreByteIdentical() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let colours: [UInt32] = [0xE04030, 0x30A050, 0x3060D0]
        let paths = try colours.enumerated().map { i, colour in
            try TestPictures.writePNG(TestPictures.stripes([colour, 0xF0F0F0], width: 160, height: 90), "\(dir)/\(i).png")
        }
        var config = CarouselConfig()
        config.interval = 0
        config.cardWidth = .fraction(0.6) // 192 px cards, 224 px apart: both neighbours show
        let viewport = Size(width: 320, height: 180)
        var engine = CarouselEngine(config: config, itemCount: 3, viewport: viewport, now: 0, startIndex: 2)
        _ = engine.page(by: 1, now: 0)
        let store = ImageStore(paths: paths, config: config, viewport: viewport)
        let compositor = Compositor(config: config, store: store)
        let target = PixelImage(width: 320, height: 180)!, reference = PixelImage(width: 320, height: 180)!
        let strip = Strip(itemCount: 3, cardsPerPage: 1)

        var t = 0.0, settled = false
        while !settled && t < 5 {
            t += 1.0 / 60
            settled = engine.update(now: t).contains { if case .settled(_, 0) = $0 { return true } else { return false } }
        }
        XCTAssertTrue(settled, "paging forward from the last picture settles on the first")
        let before = engine.layout(atPosition: strip.anchor(ofPage: 2 * strip.pageCount)) // right clone, at rest
        let after = engine.layout()
        XCTAssertEqual(engine.state().position, strip.anchor(ofPage: strip.pageCount), "re-centred into the real copy")
        XCTAssertGreaterThan(after.cards.count, 1, "side cards are on screen too")

        store.waitUntilLoaded(for: before)
        XCTAssertTrue(compositor.compose(before, into: target.buffer))
        XCTAssertFalse(compositor.compose(after, into: target.buffer), "same picture: nothing to redraw at the seam")
        XCTAssertTrue(Compositor(config: config, store: store).compose(after, into: reference.buffer))
        XCTAssertTrue(memcmp(target.base, reference.base, target.byteCount) == 0, "byte-identical frames")
    }
}
