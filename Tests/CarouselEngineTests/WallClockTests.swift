import XCTest
@testable import CarouselEngine

final class WallClockScheduleTests: XCTestCase {
    // 2026-11-23T12:00:00Z
    let noon = 1_795_435_200.0

    func testEveryItemHasItsWindowAndTheCycleRepeatsFromTheEpoch() throws {
        let schedule = try XCTUnwrap(WallClockSchedule(epoch: 0, interval: 10, itemDurations: [nil, 5, nil], itemCount: 3))
        XCTAssertEqual(schedule.cycle, 25)
        XCTAssertEqual(schedule.slot(at: 0).index, 0)
        XCTAssertEqual(schedule.slot(at: 9.999).index, 0)
        XCTAssertEqual(schedule.slot(at: 10).index, 1, "#EXTINF:5 for the second item")
        XCTAssertEqual(schedule.slot(at: 14.9).index, 1)
        XCTAssertEqual(schedule.slot(at: 15).index, 2)
        XCTAssertEqual(schedule.slot(at: 25).index, 0, "the next cycle")
        let late = schedule.slot(at: 25 * 1000 + 12)
        XCTAssertEqual(late.index, 1)
        XCTAssertEqual(late.start, 25 * 1000 + 10)
        XCTAssertEqual(late.end, 25 * 1000 + 15)
    }

    func testTimesBeforeTheEpochAndTodaysClockWork() throws {
        let schedule = try XCTUnwrap(WallClockSchedule(epoch: 946_684_800, interval: 4, itemDurations: [], itemCount: 5))
        XCTAssertEqual(schedule.slot(at: 946_684_800 - 1).index, 4, "one second before the epoch: the last item")
        // 2026-11-23T12:00:00Z is (1795435200 - 946684800) / 4 = 212187600 windows on: item 0.
        XCTAssertEqual(schedule.slot(at: noon).index, 0)
        XCTAssertEqual(schedule.slot(at: noon + 7.3).index, 1)
        XCTAssertEqual(schedule.slot(at: noon + 7.3).start, noon + 4, accuracy: 1e-6)
    }

    func testTwoBoxesStarted7Point3SecondsApartAgreeAtEveryInstant() throws {
        let a = try XCTUnwrap(WallClockSchedule(epoch: 946_684_800, interval: 4, itemDurations: [6, nil, 3], itemCount: 3))
        let b = try XCTUnwrap(WallClockSchedule(epoch: 946_684_800, interval: 4, itemDurations: [6, nil, 3], itemCount: 3))
        for step in 0..<200 {
            let t = noon + 7.3 + Double(step) * 0.37
            XCTAssertEqual(a.target(at: t, lead: 0.4), b.target(at: t, lead: 0.4))
        }
    }

    func testThePageChangeStartsEarlyByTheLead() throws {
        let schedule = try XCTUnwrap(WallClockSchedule(epoch: 0, interval: 10, itemDurations: [], itemCount: 3))
        XCTAssertEqual(schedule.target(at: 9.5, lead: 0.6), 1, "0.6 s before the boundary the move has begun")
        XCTAssertEqual(schedule.target(at: 9.3, lead: 0.6), 0)
        XCTAssertEqual(schedule.nextChange(after: 3, lead: 0.6), 9.4, accuracy: 1e-9)
        XCTAssertEqual(schedule.nextChange(after: 9.4, lead: 0.6), 19.4, accuracy: 1e-9)
    }

    func testNoScheduleWithoutAPositiveDurationForEveryItem() {
        XCTAssertNil(WallClockSchedule(epoch: 0, interval: 0, itemDurations: [5], itemCount: 2))
        XCTAssertNil(WallClockSchedule(epoch: 0, interval: 4, itemDurations: [], itemCount: 0))
        XCTAssertNotNil(WallClockSchedule(epoch: 0, interval: 0, itemDurations: [5, 7], itemCount: 2))
    }
}

final class EngineFollowTests: XCTestCase {
    func testOneStepAnimatesAndSettlesWithinTheLead() {
        var engine = Fixture.engine(items: 5)
        let lead = engine.pageSettleDuration
        XCTAssertGreaterThan(lead, 0.1)
        XCTAssertLessThan(lead, 3)
        _ = engine.follow(item: 1, now: 10)
        XCTAssertTrue(engine.isMoving)
        XCTAssertEqual(engine.selectedIndex, 1)
        let events = engine.update(now: 10 + lead)
        XCTAssertFalse(engine.isMoving, "the move rests when the lead is over: at the boundary")
        XCTAssertEqual(events, [.settled(time: 10 + lead, index: 1)])
    }

    func testAStepAcrossTheLoopIsOneStep() {
        var engine = Fixture.engine(items: 5, start: 4)
        _ = engine.follow(item: 0, now: 1)
        XCTAssertTrue(engine.isMoving, "from the last item to the first is one page on, animated")
    }

    func testFartherCutsAtOnceUnlessAskedToAnimate() {
        var engine = Fixture.engine(items: 6)
        let events = engine.follow(item: 3, now: 1)
        XCTAssertFalse(engine.isMoving)
        XCTAssertEqual(engine.selectedIndex, 3)
        XCTAssertEqual(events, [.settled(time: 1, index: 3)])
        XCTAssertEqual(engine.layout().cards.last?.index, 3)
        _ = engine.follow(item: 5, now: 2, animateFarther: true)
        XCTAssertTrue(engine.isMoving)
    }

    func testPauseHoldsAutoAdvanceAndResumeGivesAFullInterval() {
        var engine = Fixture.engine(items: 3) { $0.interval = 4 }
        engine.setPaused(true, now: 1)
        XCTAssertNil(engine.nextDeadline)
        _ = engine.update(now: 30)
        XCTAssertEqual(engine.selectedIndex, 0, "nothing advanced while paused")
        engine.setPaused(false, now: 30)
        XCTAssertEqual(engine.nextDeadline, 34)
    }
}
