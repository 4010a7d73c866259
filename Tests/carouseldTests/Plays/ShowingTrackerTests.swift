import XCTest
@testable import carouseld

/// The showings of one carousel, with times given: no clock, no sleep.
final class ShowingTrackerTests: XCTestCase {
    /// Monotonic `t`, the wall clock 1000 s ahead of it.
    private func at(_ t: Double) -> PlayInstant { PlayInstant(monotonic: t, wall: 1000 + t) }

    func testAShowingRunsFromTheRestToTheStartOfTheMoveThatTookIt() {
        var tracker = ShowingTracker()
        XCTAssertNil(tracker.rested(on: "a", at: at(0), cause: .auto), "nothing was shown before")
        tracker.left(because: .auto, at: at(4))
        let a = tracker.rested(on: "b", at: at(4.6), cause: .auto)
        XCTAssertEqual(a, FinishedShowing(item: "a", since: at(0), until: at(4), cause: .auto))
        XCTAssertEqual(a?.duration, 4)
        tracker.left(because: .ctl, at: at(6))
        XCTAssertEqual(tracker.rested(on: "c", at: at(6.5), cause: .auto)?.cause, .ctl, "the asker's cause, not the fallback")
    }

    func testAMoveThatSpringsBackToTheSamePictureEndsNothing() {
        var tracker = ShowingTracker()
        _ = tracker.rested(on: "a", at: at(0), cause: .auto)
        tracker.left(because: .touch, at: at(1))
        XCTAssertNil(tracker.rested(on: "a", at: at(1.5), cause: .auto), "a drag let go: still a")
        tracker.left(because: .auto, at: at(5.5))
        let a = tracker.rested(on: "b", at: at(6), cause: .auto)
        XCTAssertEqual(a?.since, at(0), "one showing from the first rest")
        XCTAssertEqual(a?.until, at(5.5), "to the countdown's move, not the touch's")
        XCTAssertEqual(a?.cause, .auto)
    }

    func testTheFirstMoveAwayCountsWhenAnotherCatchesIt() {
        var tracker = ShowingTracker()
        _ = tracker.rested(on: "a", at: at(0), cause: .auto)
        tracker.left(because: .auto, at: at(4))
        tracker.left(because: .touch, at: at(4.2))   // a finger catches the page change
        XCTAssertEqual(tracker.rested(on: "c", at: at(5), cause: .auto)?.cause, .auto)
    }

    func testACutWithoutAMoveEndsAtTheRestWithTheCauseGiven() {
        var tracker = ShowingTracker()
        _ = tracker.rested(on: "a", at: at(0), cause: .auto)
        let a = tracker.rested(on: "x", at: at(3), cause: .reload)
        XCTAssertEqual(a, FinishedShowing(item: "a", since: at(0), until: at(3), cause: .reload))
    }

    func testAPictureReplacedTheInstantItCameIsNoShowing() {
        var tracker = ShowingTracker()
        _ = tracker.rested(on: "a", at: at(0), cause: .auto)
        XCTAssertEqual(tracker.rested(on: "b", at: at(5), cause: .daypart)?.item, "a")
        tracker.left(because: .sync, at: at(5))
        XCTAssertNil(tracker.rested(on: "c", at: at(5), cause: .auto), "b was never drawn")
        XCTAssertEqual(tracker.ended(at: at(9), cause: .stop)?.since, at(5), "c from then on")
    }

    func testDarkScreensEndTheShowingAndBeginNone() {
        var tracker = ShowingTracker()
        _ = tracker.rested(on: "a", at: at(0), cause: .auto)
        XCTAssertEqual(tracker.ended(at: at(10), cause: .off)?.until, at(10))
        XCTAssertNil(tracker.current)
        XCTAssertNil(tracker.ended(at: at(11), cause: .stop), "nothing on screen, nothing to end")
        XCTAssertNil(tracker.rested(on: "a", at: at(20), cause: .off), "on again: a new showing of a")
        XCTAssertEqual(tracker.current?.since, at(20))
    }

    func testAShowingEndedWhileMovingEndsWhereTheMoveBegan() {
        var tracker = ShowingTracker()
        _ = tracker.rested(on: "a", at: at(0), cause: .auto)
        tracker.left(because: .auto, at: at(4))
        XCTAssertEqual(tracker.ended(at: at(4.3), cause: .stop), FinishedShowing(item: "a", since: at(0), until: at(4), cause: .auto))
    }

    func testTheDurationIsMonotonicWhateverTheWallClockDid() {
        var tracker = ShowingTracker()
        _ = tracker.rested(on: "a", at: PlayInstant(monotonic: 10, wall: 5000), cause: .auto)
        let a = tracker.ended(at: PlayInstant(monotonic: 14, wall: 100), cause: .stop)   // the clock was set back
        XCTAssertEqual(a?.duration, 4)
        XCTAssertEqual(a?.since.wall, 5000)
    }

    func testTheRecordCarriesEveryJournalField() {
        let showing = FinishedShowing(item: "/etc/carouseld/images/a b.jpg", since: at(0.5), until: at(4.5), cause: .ctl)
        let fields = PlayRecord(showing, output: "HDMI-A-1").journalFields
        XCTAssertTrue(fields.contains("MESSAGE_ID=\(PlayRecord.messageID)"))
        XCTAssertTrue(fields.contains("CAROUSELD_ITEM=/etc/carouseld/images/a b.jpg"))
        XCTAssertTrue(fields.contains("CAROUSELD_OUTPUT=HDMI-A-1"))
        XCTAssertTrue(fields.contains("CAROUSELD_SHOWN_USEC=1000500000"))
        XCTAssertTrue(fields.contains("CAROUSELD_DURATION_USEC=4000000"))
        XCTAssertTrue(fields.contains("CAROUSELD_CAUSE=ctl"))
        XCTAssertEqual(PlayRecord.messageID.count, 32, "a 128-bit id in journald's hex form")
    }
}
