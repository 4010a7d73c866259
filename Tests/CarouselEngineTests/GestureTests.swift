import XCTest
@testable import CarouselEngine

final class GestureTests: XCTestCase {
    func testNothingMovesInsideTheSlopThenTheStripFollowsTheFinger() {
        var engine = Fixture.engine()   // touch_slop 8
        let rest = engine.layout()
        _ = engine.handle(touch(0, .down, 500))
        _ = engine.handle(touch(0.02, .move, 507))
        XCTAssertEqual(engine.layout().cards, rest.cards)
        XCTAssertFalse(engine.isMoving)
        _ = engine.handle(touch(0.04, .move, 510))
        XCTAssertTrue(engine.isMoving)
        XCTAssertEqual(engine.topCard!.x, Fixture.centreX + 2, accuracy: 1e-9, "the slop is not a jump")
        // 1:1 from here on, both ways.
        for (i, x) in [460.0, 300, 333.5, 700].enumerated() {
            _ = engine.handle(touch(0.06 + Double(i) * 0.02, .move, x))
            let centre = engine.layout().cards.first { $0.index == 0 }!
            XCTAssertEqual(centre.x, Fixture.centreX + x - 508, accuracy: 1e-9)
        }
    }

    func testVerticalMovementDoesNotDrag() {
        var engine = Fixture.engine()
        _ = engine.handle(touch(0, .down, 500, 300))
        _ = engine.handle(touch(0.05, .move, 503, 450))
        XCTAssertFalse(engine.isMoving)
        let events = engine.handle(touch(0.1, .up, 503, 450))
        XCTAssertEqual(events, [], "left the tap area: neither tap nor drag")
    }

    func testAFlingPagesInItsDirection() {
        var engine = Fixture.engine()
        var events: [CarouselEvent] = []
        // 100 px in 50 ms = 2000 px/s, far under the page threshold but over fling_velocity.
        let lift = engine.swipe(from: 700, to: 600, at: 0, duration: 0.05, events: &events)
        XCTAssertEqual(events.releases.map(\.from), [0])
        XCTAssertEqual(events.releases.map(\.to), [1])
        XCTAssertEqual(engine.selectedIndex, 1)
        XCTAssertEqual(engine.runUntilSettled(from: lift)?.index, 1)
        events = []
        let back = engine.swipe(from: 300, to: 400, at: 2, duration: 0.05, events: &events)
        XCTAssertEqual(events.releases.map(\.to), [0])
        XCTAssertEqual(engine.runUntilSettled(from: back)?.index, 0)
    }

    func testAFlingAgainstTheDragDirectionGoesWithTheFling() {
        var engine = Fixture.engine()
        var events: [CarouselEvent] = []
        // Drag 250 px left slowly, then flick right: back to page 0, not on to page 1.
        _ = engine.handle(touch(0, .down, 800))
        for i in 1...25 { events += engine.handle(touch(Double(i) * 0.04, .move, 800 - Double(i) * 10)) }
        for i in 1...4 { events += engine.handle(touch(1 + Double(i) * 0.01, .move, 550 + Double(i) * 15)) }
        events += engine.handle(touch(1.05, .up, 610))
        XCTAssertEqual(events.releases.map(\.to), [0])
    }

    func testASlowDragPagesOnlyPastTheThreshold() {
        for (distance, threshold, expected) in [(400.0, 0.5, 1), (300.0, 0.5, 0), (400.0, 0.7, 0), (480.0, 0.7, 1)] {
            var engine = Fixture.engine { $0.gesture.pageThreshold = threshold }
            var events: [CarouselEvent] = []
            // 100 px/s: well under fling_velocity. Dragged distance = distance - slop.
            let lift = engine.swipe(from: 900, to: 900 - distance - 8, at: 0, duration: (distance + 8) / 100,
                                    steps: 40, events: &events)
            XCTAssertEqual(events.releases.map(\.to), [expected], "\(distance) px, threshold \(threshold)")
            XCTAssertLessThan(abs(events.releases.first?.vx ?? 1e9), 400)
            XCTAssertEqual(engine.runUntilSettled(from: lift)?.index, expected)
            XCTAssertEqual(engine.topCard?.x, Fixture.centreX)
        }
    }

    func testPagesPerGestureAreCapped() {
        // 200 px cards + 20 px spacing: a 1000 px fling crosses four and a half cards.
        for (cap, expected) in [(1, 1), (2, 2), (4, 4), (10, 5)] {
            var engine = Fixture.engine(items: 9) {
                $0.cardWidth = .pixels(200); $0.spacing = 20; $0.gesture.maxPagesPerGesture = cap; $0.gesture.touchSlop = 0
            }
            var events: [CarouselEvent] = []
            let lift = engine.swipe(from: 1000, to: 0, at: 0, duration: 0.2, events: &events)
            XCTAssertEqual(events.releases.map(\.to), [expected], "cap \(cap)")
            XCTAssertEqual(engine.runUntilSettled(from: lift)?.index, expected)
        }
    }

    func testTappingASideCardPagesToIt() {
        var engine = Fixture.engine()
        // The right neighbour (scaled 0.85 about its centre) spans 885...1395.
        var events = engine.handle(touch(0, .down, 900))
        events += engine.handle(touch(0.1, .up, 900))
        XCTAssertEqual(events, [.tap(time: 0.1, index: 1)])
        XCTAssertEqual(engine.runUntilSettled(from: 0.1)?.index, 1)
        // The left neighbour spans -395...115.
        events = engine.handle(touch(2, .down, 100))
        events += engine.handle(touch(2.1, .up, 100))
        XCTAssertEqual(events, [.tap(time: 2.1, index: 0)])
        XCTAssertEqual(engine.runUntilSettled(from: 2.1)?.index, 0)
        // Between the left neighbour's scaled edge and the centre card: nothing.
        events = engine.handle(touch(4, .down, 150))
        events += engine.handle(touch(4.1, .up, 150))
        XCTAssertEqual(events, [])
        XCTAssertFalse(engine.isMoving)
    }

    func testTappingTheCentreCardActivatesIt() {
        var engine = Fixture.engine(start: 3)
        var events = engine.handle(touch(0, .down, 500))
        events += engine.handle(touch(0.05, .move, 503))
        events += engine.handle(touch(0.2, .up, 503))
        XCTAssertEqual(events, [.activated(time: 0.2, index: 3)])
        XCTAssertFalse(engine.isMoving)
        XCTAssertEqual(engine.selectedIndex, 3)
    }

    func testALongPressIsNotATap() {
        var engine = Fixture.engine()
        var events = engine.handle(touch(0, .down, 900))
        events += engine.handle(touch(0.5, .up, 900))   // tap_timeout 0.3
        XCTAssertEqual(events, [])
        XCTAssertFalse(engine.isMoving)
    }

    func testATouchCatchesTheMovingStripWhereItIs() {
        var engine = Fixture.engine()
        _ = engine.page(by: 1, now: 0)
        _ = engine.update(now: 0.15)
        let moving = engine.layout()
        XCTAssertTrue(engine.isMoving)
        XCTAssertEqual(engine.handle(touch(0.15, .down, 500)), [])
        XCTAssertEqual(engine.layout().cards, moving.cards, "no jump when caught")
        XCTAssertFalse(engine.isMoving)
        _ = engine.update(now: 0.4)
        XCTAssertEqual(engine.layout().cards, moving.cards, "held while the finger rests")
        // The drag continues from the caught position.
        _ = engine.handle(touch(0.45, .move, 500 - 8 - 50))
        let caughtX = moving.cards.first { $0.index == 1 }!.x
        XCTAssertEqual(engine.layout().cards.first { $0.index == 1 }!.x, caughtX - 50, accuracy: 1e-9)
        // Lifting after resting settles on the nearest page, which is page 1 here.
        let events = engine.handle(touch(0.6, .up, 442))
        XCTAssertEqual(events.releases.map(\.to), [1])
        XCTAssertEqual(engine.runUntilSettled(from: 0.6)?.index, 1)
    }

    func testACaughtStripThatIsReleasedWithoutDragSettlesOnTheNearestPage() {
        var engine = Fixture.engine()
        _ = engine.page(by: 1, now: 0)
        _ = engine.update(now: 0.05)   // still nearer page 0
        var events = engine.handle(touch(0.05, .down, 500))
        events += engine.handle(touch(0.1, .up, 500))
        XCTAssertEqual(events, [], "catching is not a tap")
        XCTAssertEqual(engine.runUntilSettled(from: 0.1)?.index, 0)
    }

    func testOnlyTheFirstFingerDrives() {
        var engine = Fixture.engine()
        var events: [CarouselEvent] = []
        events += engine.handle(touch(0, .down, 800, slot: 0))
        events += engine.handle(touch(0.01, .down, 200, slot: 1, contactsDown: 2))
        events += engine.handle(touch(0.02, .move, 900, slot: 1, contactsDown: 2))   // ignored
        XCTAssertEqual(engine.topCard?.x, Fixture.centreX)
        events += engine.handle(touch(0.03, .move, 700, slot: 0, contactsDown: 2))
        XCTAssertEqual(engine.topCard!.x, Fixture.centreX - 92, accuracy: 1e-9)
        events += engine.handle(touch(0.04, .up, 700, slot: 0, contactsDown: 1))
        XCTAssertEqual(events.releases.count, 1)
        // Finger 1 is still down: it does not take over, nor does a new finger until all lift.
        events = engine.handle(touch(0.05, .move, 100, slot: 1, contactsDown: 1))
        events += engine.handle(touch(0.06, .down, 500, slot: 2, contactsDown: 2))
        events += engine.handle(touch(0.07, .move, 100, slot: 2, contactsDown: 2))
        events += engine.handle(touch(0.08, .up, 100, slot: 2, contactsDown: 1))
        XCTAssertEqual(events.releases.count, 0)
        XCTAssertEqual(engine.runUntilSettled(from: 0.08)?.index, 1)
        _ = engine.handle(touch(2, .up, 100, slot: 1))
        // All fingers up: the next finger drives again.
        events = []
        engine.swipe(from: 300, to: 500, at: 3, duration: 0.05, events: &events)
        XCTAssertEqual(events.releases.map(\.to), [0])
    }

    func testTwoFingersInOneFrameTheFirstListedDrives() {
        var engine = Fixture.engine()
        _ = engine.handle(TouchFrame(time: 0, samples: [TouchSample(slot: 4, phase: .down, x: 800, y: 300),
                                                        TouchSample(slot: 2, phase: .down, x: 300, y: 300)], contactsDown: 2))
        _ = engine.handle(TouchFrame(time: 0.05, samples: [TouchSample(slot: 2, phase: .move, x: 600, y: 300),
                                                           TouchSample(slot: 4, phase: .move, x: 700, y: 300)], contactsDown: 2))
        XCTAssertEqual(engine.topCard!.x, Fixture.centreX - 92, accuracy: 1e-9)
    }

    func testACancelledTouchSpringsBackWithoutVelocity() {
        var engine = Fixture.engine()
        _ = engine.handle(touch(0, .down, 900))
        for i in 1...10 { _ = engine.handle(touch(Double(i) * 0.01, .move, 900 - Double(i) * 50)) }
        // Dragged 492 px fast: a release would page; the cancel must not.
        var events = engine.handle(touch(0.1, .cancel, 400))
        XCTAssertEqual(events, [])
        XCTAssertTrue(engine.isMoving)
        // Zero velocity: the strip starts moving back at rest, so 1 ms later it has hardly moved.
        let x0 = engine.topCard!.x
        _ = engine.update(now: 0.101)
        XCTAssertEqual(engine.topCard!.x, x0, accuracy: 0.1)
        XCTAssertEqual(engine.runUntilSettled(from: 0.101)?.index, 0)
        // The device going away does the same.
        _ = engine.handle(touch(2, .down, 900))
        _ = engine.handle(touch(2.1, .move, 400))
        events = engine.cancelTouches(now: 2.2)
        XCTAssertEqual(events, [])
        XCTAssertEqual(engine.runUntilSettled(from: 2.2)?.index, 0)
        XCTAssertEqual(engine.topCard?.x, Fixture.centreX)
    }

    func testAbsurdReleaseSpeedsAreCapped() {
        var engine = Fixture.engine()
        var events: [CarouselEvent] = []
        // 600 px in 3 ms (200 000 px/s) is timestamp jitter, not a finger.
        let lift = engine.swipe(from: 900, to: 300, at: 0, duration: 0.003, steps: 3, events: &events)
        XCTAssertEqual(events.releases.first?.vx, -8000)
        XCTAssertEqual(events.releases.first?.to, 1)
        // Seeded with 8000 px/s the strip overshoots a little, never by whole pages.
        var farthest = 0.0
        for i in 1...120 {
            _ = engine.update(now: lift + Double(i) / 60)
            farthest = max(farthest, engine.state().position - 6)
        }
        XCTAssertLessThan(farthest, 0.5)
        XCTAssertFalse(engine.isMoving)
    }
}
