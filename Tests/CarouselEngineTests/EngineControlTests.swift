import XCTest
@testable import CarouselEngine

/// Keyboard paging, playlist/config swaps and resizes.
final class EngineControlTests: XCTestCase {
    func testKeyboardPagesBothWaysAcrossTheLoop() {
        var engine = Fixture.engine()
        _ = engine.page(by: -1, now: 0)
        XCTAssertEqual(engine.selectedIndex, 4, "the target is selected at once")
        XCTAssertEqual(engine.runUntilSettled(from: 0)?.index, 4)
        _ = engine.page(by: 2, now: 2)
        XCTAssertEqual(engine.runUntilSettled(from: 2)?.index, 1)
    }

    func testRepeatedKeysAddToTheRunningTarget() {
        var engine = Fixture.engine()
        _ = engine.page(by: 1, now: 0)
        _ = engine.update(now: 0.1)
        _ = engine.page(by: 1, now: 0.1)
        XCTAssertEqual(engine.selectedIndex, 2)
        XCTAssertEqual(engine.runUntilSettled(from: 0.1)?.index, 2)
    }

    func testKeyboardIsIgnoredWhileAFingerDrives() {
        var engine = Fixture.engine()
        _ = engine.handle(touch(0, .down, 500))
        _ = engine.page(by: 1, now: 0.1)
        XCTAssertFalse(engine.isMoving)
        XCTAssertEqual(engine.selectedIndex, 0)
    }

    func testReconfigureKeepsThePictureOnScreenAndRestartsTheInterval() {
        var engine = Fixture.engine(start: 3) { $0.interval = 5 }
        _ = engine.page(by: 1, now: 1)
        _ = engine.update(now: 1.2)
        // Item 4 moved to index 1 in the new playlist; the animation stops on it.
        engine.reconfigure(Fixture.config { $0.interval = 3 }, itemCount: 4, keepIndex: 1, now: 1.3)
        XCTAssertFalse(engine.isMoving)
        XCTAssertEqual(engine.selectedIndex, 1)
        XCTAssertEqual(engine.topCard?.index, 1)
        XCTAssertEqual(engine.topCard?.x, Fixture.centreX)
        XCTAssertEqual(engine.nextDeadline, 4.3)
        XCTAssertEqual(engine.layout().itemCount, 4)
        // Without a kept picture it starts at the beginning; an index past the end is clamped.
        engine.reconfigure(Fixture.config(), itemCount: 4, keepIndex: nil, now: 2)
        XCTAssertEqual(engine.selectedIndex, 0)
        engine.reconfigure(Fixture.config(), itemCount: 2, keepIndex: 9, now: 2)
        XCTAssertEqual(engine.selectedIndex, 1)
        engine.reconfigure(Fixture.config(), itemCount: 0, keepIndex: 1, now: 2)
        XCTAssertEqual(engine.layout().cards, [])
    }

    func testReconfigureDuringADragEndsTheGesture() {
        var engine = Fixture.engine()
        _ = engine.handle(touch(0, .down, 900))
        _ = engine.handle(touch(0.1, .move, 600))
        engine.reconfigure(Fixture.config(), itemCount: 5, keepIndex: 0, now: 0.2)
        XCTAssertFalse(engine.isMoving)
        // The old finger no longer drives, and no new finger does until it lifts.
        XCTAssertEqual(engine.handle(touch(0.3, .move, 100)), [])
        XCTAssertEqual(engine.topCard?.x, Fixture.centreX)
        XCTAssertEqual(engine.handle(touch(0.4, .up, 100)), [])
    }

    func testResizeRelaysOutAtTheSamePicture() {
        var engine = Fixture.engine(start: 2) { $0.cardWidth = .fraction(0.5) }
        engine.resize(Size(width: 1920, height: 1080))
        XCTAssertEqual(engine.topCard?.index, 2)
        XCTAssertEqual(engine.topCard?.width, 960)
        XCTAssertEqual(engine.topCard?.x, 480)
        XCTAssertEqual(engine.layout().viewport, Size(width: 1920, height: 1080))
    }

    func testTimeNeverRunsBackwards() {
        var engine = Fixture.engine()
        _ = engine.page(by: 1, now: 1)
        _ = engine.update(now: 1.3)
        let frame = engine.layout()
        _ = engine.update(now: 1.1)
        XCTAssertEqual(engine.now, 1.3)
        XCTAssertEqual(engine.layout(), frame)
    }
}
