@testable import CarouselCore
@testable import CarouselEngine
@testable import CarouselConfig
import XCTest
@testable import carouseld

/// A clock not yet synchronised: the schedules wait for it, and re-align the moment it is.
final class ClockTrustTests: LocalZoneTestCase {
    private let time = ManualTime(1000)
    /// What the kernel says; the tests set it.
    private var synchronised = false

    private func runLoop(_ loop: EventLoop, for seconds: Double) throws {
        let end = time.now() + seconds
        while time.now() < end {
            time.advance(by: 0.05)
            try loop.runOnce(timeoutMilliseconds: 0)
        }
    }

    func testAnUnsynchronisedClockIsBelievedOnceWithinAPollOfItsSynchronisation() throws {
        let loop = try EventLoop(time: time)
        var told = 0
        let clock = ClockTrust(mode: .synchronised, loop: loop, probe: { [unowned self] in synchronised },
                               trusted: { told += 1 })
        XCTAssertFalse(clock.isTrusted)
        XCTAssertNil(clock.trustedNow, "dayparts read no time from it")
        try runLoop(loop, for: 3)
        XCTAssertFalse(clock.isTrusted, "still not synchronised: asked again, still waiting")
        synchronised = true
        let syncedAt = time.now()
        while !clock.isTrusted && time.now() - syncedAt < 5 { try runLoop(loop, for: 0.05) }
        XCTAssertTrue(clock.isTrusted)
        XCTAssertLessThanOrEqual(time.now() - syncedAt, ClockTrust.pollInterval + 0.051, "within a poll")
        XCTAssertEqual(told, 1)
        synchronised = false   // hours without NTP, or `date -s`: the kernel says unsynchronised again
        try runLoop(loop, for: 3)
        XCTAssertTrue(clock.isTrusted, "once believed, believed for the daemon's life")
        XCTAssertEqual(told, 1)
        XCTAssertNil(loop.nextDeadline, "no poll once believed")
    }

    func testTrustClockAlwaysBelievesItAtOnceAndOnAReload() throws {
        let loop = try EventLoop(time: time)
        XCTAssertTrue(ClockTrust(mode: .always, loop: loop) { false }.isTrusted)
        var told = false
        let waiting = ClockTrust(mode: .synchronised, loop: loop, probe: { false }, trusted: { told = true })
        waiting.configure(mode: .always)
        XCTAssertTrue(waiting.isTrusted)
        XCTAssertTrue(told)
    }

    func testTheScheduleKeepsTheScreenOnUntilTheClockIsBelieved() {
        let monday1200 = 1_795_431_600.0
        let night = WeeklyWindow(days: Set(0..<7), start: Weekdays.minute("00:00") ?? -1, end: Weekdays.minute("06:00") ?? -1)
        var power = ScreenPower(schedule: [night])
        power.clockTrusted = false
        XCTAssertEqual(power.state(at: monday1200).on, true)
        XCTAssertEqual(power.state(at: monday1200).reason, "clock not synchronised")
        XCTAssertNil(power.nextChange(after: monday1200), "no schedule change is waited for")
        power.set(.off, at: monday1200)
        XCTAssertEqual(power.state(at: monday1200).on, false, "ctl screen off still works")
        power.set(.auto, at: monday1200)
        power.clockTrusted = true
        XCTAssertEqual(power.state(at: monday1200).on, false, "believed: noon is off by the schedule")
        XCTAssertEqual(power.state(at: monday1200).reason, "scheduled")
        XCTAssertTrue(ScreenPower(schedule: []).state(at: monday1200) == (true, "always"))
    }
}
