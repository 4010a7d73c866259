import XCTest
@testable import CarouselEngine

final class StripLoopTests: XCTestCase {
    /// Every page of both clone copies lays out exactly like the same page of the real copy.
    func testCloneAndRealPagesHaveIdenticalLayouts() {
        for n in [2, 3, 5, 7] {
            for cardsPerPage in [1, 2, 3] where (n + cardsPerPage - 1) / cardsPerPage >= 2 {
                let engine = Fixture.engine(items: n) { $0.cardsPerPage = cardsPerPage }
                let strip = Strip(itemCount: n, cardsPerPage: cardsPerPage)
                for page in strip.realPages {
                    let real = engine.layout(atPosition: strip.anchor(ofPage: page))
                    XCTAssertFalse(real.cards.isEmpty)
                    for clone in [page - strip.pageCount, page + strip.pageCount] {
                        XCTAssertEqual(strip.recentre(page: clone).page, page)
                        XCTAssertEqual(engine.layout(atPosition: strip.anchor(ofPage: clone)), real,
                                       "N=\(n) cards/page=\(cardsPerPage) page \(page) vs clone \(clone)")
                    }
                }
            }
        }
    }

    /// Paging backwards from the first item settles in the left clone; paging forward from the
    /// last settles in the right clone. Either way the engine re-centres into the real copy and
    /// the settled frame equals the frame at the clone position.
    func testSettlingInACloneJumpsToTheRealCopyWithoutChangingTheFrame() {
        for n in [2, 3, 6] {
            let strip = Strip(itemCount: n, cardsPerPage: 1)
            for (start, delta) in [(0, -1), (n - 1, 1)] {
                var engine = Fixture.engine(items: n, start: start)
                _ = engine.page(by: delta, now: 0)
                var previous = engine.layout()
                var t = 0.0, settled = false
                while !settled && t < 3 {
                    t += 1.0 / 60
                    let events = engine.update(now: t)
                    let frame = engine.layout()
                    if let index = events.settledIndices.first {
                        settled = true
                        let expected = (start + delta + n) % n
                        XCTAssertEqual(index, expected)
                        let clonePage = delta < 0 ? strip.pageCount - 1 : 2 * strip.pageCount
                        XCTAssertEqual(frame, engine.layout(atPosition: strip.anchor(ofPage: clonePage)))
                        XCTAssertEqual(engine.state().position, strip.anchor(ofPage: strip.pageCount + expected))
                        // The last moving frame differs only by the final sub-pixel creep, not by a jump.
                        // (Compared left to right: equally distant side cards may swap draw order.)
                        let before = previous.cards.sorted { $0.x < $1.x }, after = frame.cards.sorted { $0.x < $1.x }
                        XCTAssertEqual(before.map(\.index), after.map(\.index))
                        for (a, b) in zip(before, after) { XCTAssertEqual(a.x, b.x, accuracy: 2) }
                    }
                    previous = frame
                }
                XCTAssertTrue(settled, "N=\(n) never settled")
            }
        }
    }

    func testEmptyPlaylistDrawsNothingAndNeverCrashes() {
        var engine = Fixture.engine(items: 0) { $0.interval = 2 }
        var events: [CarouselEvent] = []
        engine.swipe(from: 800, to: 100, at: 0.1, duration: 0.1, events: &events)
        events += engine.handle(touch(0.5, .down, 500))
        events += engine.handle(touch(0.55, .up, 500))
        events += engine.page(by: 3, now: 0.6)
        events += engine.run(from: 0.6, to: 5)
        events += engine.cancelTouches(now: 5)
        let layout = engine.layout()
        XCTAssertEqual(events, [])
        XCTAssertEqual(layout.cards, [])
        XCTAssertEqual(layout.selectedIndex, 0)
        XCTAssertEqual(layout.pageCount, 0)
        XCTAssertFalse(engine.isMoving)
        XCTAssertNil(engine.nextDeadline)
    }

    func testSingleItemShowsOneCardAndSwipesSpringBack() {
        var engine = Fixture.engine(items: 1) { $0.interval = 2 }
        XCTAssertEqual(engine.layout().cards.map(\.index), [0])
        XCTAssertNil(engine.nextDeadline, "auto-advance is off with one item")
        var events: [CarouselEvent] = []
        let lift = engine.swipe(from: 900, to: 300, at: 0, duration: 0.1, events: &events)
        XCTAssertEqual(events.releases.map(\.to), [0])
        XCTAssertEqual(engine.runUntilSettled(from: lift)?.index, 0)
        XCTAssertEqual(engine.topCard?.x, Fixture.centreX)
        XCTAssertEqual(engine.page(by: 1, now: 3), [])
        XCTAssertFalse(engine.isMoving)
    }

    func testTwoItemsShowTheOtherPictureOnBothSides() {
        var engine = Fixture.engine(items: 2)
        let cards = engine.layout().cards
        XCTAssertEqual(cards.map(\.index), [1, 1, 0])
        XCTAssertEqual(cards.map(\.x).sorted(), [Fixture.centreX - Fixture.step, Fixture.centreX,
                                                 Fixture.centreX + Fixture.step])
        _ = engine.page(by: 1, now: 0)
        XCTAssertEqual(engine.runUntilSettled(from: 0)?.index, 1)
        XCTAssertEqual(engine.layout().cards.map(\.index), [0, 0, 1])
        _ = engine.page(by: 1, now: 2)
        XCTAssertEqual(engine.runUntilSettled(from: 2)?.index, 0)
        XCTAssertEqual(engine.layout().cards.map(\.index), [1, 1, 0])
    }

    /// Small cards on a wide screen need more than three copies of a two-item playlist.
    func testTwoSmallItemsFillAWideScreenAlternating() {
        let engine = Fixture.engine(items: 2) { $0.cardWidth = .pixels(100); $0.spacing = 10 }
        let cards = engine.layout().cards.sorted { $0.x < $1.x }
        XCTAssertGreaterThanOrEqual(cards.count, 9)
        for (a, b) in zip(cards, cards.dropFirst()) {
            XCTAssertNotEqual(a.index, b.index)
            XCTAssertEqual(b.x - a.x, 110, accuracy: 1e-9)
        }
    }
}
