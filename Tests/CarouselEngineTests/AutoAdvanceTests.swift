import XCTest
@testable import CarouselEngine

final class AutoAdvanceTests: XCTestCase {
    func testAdvancesOnePageAfterEachIntervalOfRest() {
        var engine = Fixture.engine(now: 100) { $0.interval = 5 }
        XCTAssertEqual(engine.nextDeadline, 105)
        XCTAssertEqual(engine.run(from: 100, to: 104.99), [])
        XCTAssertFalse(engine.isMoving)
        _ = engine.update(now: 105)
        XCTAssertTrue(engine.isMoving)
        XCTAssertNil(engine.nextDeadline, "no deadline while moving")
        guard let first = engine.runUntilSettled(from: 105) else { return XCTFail("never settled") }
        XCTAssertEqual(first.index, 1)
        XCTAssertEqual(engine.nextDeadline, first.time + 5)
        _ = engine.run(from: first.time, to: first.time + 5)
        XCTAssertEqual(engine.runUntilSettled(from: first.time + 5)?.index, 2)
    }

    func testWrapsFromTheLastItemToTheFirst() {
        var engine = Fixture.engine(items: 3, start: 2) { $0.interval = 1 }
        _ = engine.update(now: 1)
        XCTAssertEqual(engine.runUntilSettled(from: 1)?.index, 0)
        XCTAssertEqual(engine.topCard?.x, Fixture.centreX)
    }

    /// The advance starts at its deadline, not at the frame that noticed it.
    func testAdvanceIsFrameRateIndependent() {
        var prompt = Fixture.engine { $0.interval = 2 }
        var late = prompt
        _ = prompt.update(now: 2.0)
        _ = prompt.update(now: 2.1)
        _ = late.update(now: 2.1)
        XCTAssertEqual(prompt.layout(), late.layout())
        XCTAssertTrue(late.isMoving)
    }

    func testTouchCancelsTheCountdownUntilTheNextSettle() {
        var engine = Fixture.engine { $0.interval = 5 }
        // A finger resting on the screen for ages: no advance, no deadline.
        _ = engine.handle(touch(3, .down, 500))
        XCTAssertNil(engine.nextDeadline)
        XCTAssertEqual(engine.run(from: 3, to: 12), [])
        XCTAssertFalse(engine.isMoving)
        // Lifting a finger that moved nothing restarts the full interval from the lift.
        _ = engine.handle(touch(12, .up, 500))
        XCTAssertEqual(engine.nextDeadline, 17)
        // A swipe at 14: the countdown restarts only when the strip settles.
        var events: [CarouselEvent] = []
        let lift = engine.swipe(from: 900, to: 600, at: 14, duration: 0.1, events: &events)
        XCTAssertNil(engine.nextDeadline)
        guard let settled = engine.runUntilSettled(from: lift) else { return XCTFail("never settled") }
        XCTAssertEqual(settled.index, 1)
        XCTAssertEqual(engine.nextDeadline, settled.time + 5)
        XCTAssertEqual(engine.run(from: settled.time, to: settled.time + 4.99), [])
        XCTAssertFalse(engine.isMoving)
    }

    func testAnIgnoredSecondFingerStillHoldsTheSlideshow() {
        var engine = Fixture.engine { $0.interval = 5 }
        _ = engine.handle(touch(1, .down, 900))
        for i in 1...5 { _ = engine.handle(touch(1 + Double(i) * 0.01, .move, 900 - Double(i) * 30)) }
        _ = engine.handle(touch(1.06, .down, 500, slot: 1, contactsDown: 2))   // down while the first finger drags
        for i in 6...10 { _ = engine.handle(touch(1 + Double(i) * 0.01, .move, 900 - Double(i) * 30, contactsDown: 2)) }
        XCTAssertEqual(engine.handle(touch(1.1, .up, 600, contactsDown: 1)).releases.map(\.to), [1])
        guard let settled = engine.runUntilSettled(from: 1.1) else { return XCTFail("never settled") }
        XCTAssertNil(engine.nextDeadline, "a finger is still on the screen")
        XCTAssertEqual(engine.run(from: settled.time, to: 20), [])
        _ = engine.handle(touch(20, .up, 500, slot: 1))
        XCTAssertEqual(engine.nextDeadline, 25)
    }

    func testDisabledByZeroIntervalAndBySingleItem() {
        var off = Fixture.engine { $0.interval = 0 }
        XCTAssertNil(off.nextDeadline)
        XCTAssertEqual(off.run(from: 0, to: 30, hz: 10), [])
        var single = Fixture.engine(items: 1) { $0.interval = 1 }
        XCTAssertNil(single.nextDeadline)
        XCTAssertEqual(single.run(from: 0, to: 30, hz: 10), [])
        // One page of several cards is a single page too.
        var onePage = Fixture.engine(items: 3) { $0.interval = 1; $0.cardsPerPage = 3 }
        XCTAssertNil(onePage.nextDeadline)
        XCTAssertEqual(onePage.run(from: 0, to: 10, hz: 10), [])
    }

    func testPerItemDurationsOverrideTheInterval() {
        var engine = CarouselEngine(config: Fixture.config { $0.interval = 5 }, itemCount: 3,
                                    viewport: Fixture.viewport, now: 0, itemDurations: [2, nil, 7])
        XCTAssertEqual(engine.nextDeadline, 2)
        _ = engine.update(now: 2)
        guard let one = engine.runUntilSettled(from: 2) else { return XCTFail() }
        XCTAssertEqual(one.index, 1)
        XCTAssertEqual(engine.nextDeadline, one.time + 5)
        _ = engine.update(now: one.time + 5)
        guard let two = engine.runUntilSettled(from: one.time + 5) else { return XCTFail() }
        XCTAssertEqual(two.index, 2)
        XCTAssertEqual(engine.nextDeadline, two.time + 7)
    }
}
