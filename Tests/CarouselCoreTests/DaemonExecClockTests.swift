@testable import CarouselCore
import XCTest

/// The exec-to-first-frame figure: time since this process started, from /proc/self/stat.
final class DaemonExecClockTests: XCTestCase {
    func testTimeSinceExecGrowsWithTheMonotonicClock() throws {
        let now = MonotonicClock.now()
        let sinceExec = try XCTUnwrap(ExecClock.sinceExec(atMonotonic: now))
        // The test process started before this test and (far) less than an hour ago; the
        // start is read at 10 ms resolution.
        XCTAssertGreaterThan(sinceExec, -0.02)
        XCTAssertLessThan(sinceExec, 3600)
        let later = try XCTUnwrap(ExecClock.sinceExec(atMonotonic: now + 2))
        XCTAssertEqual(later - sinceExec, 2, accuracy: 0.01)
    }
}
