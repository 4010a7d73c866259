@testable import CarouselCore
import CLinux
import Glibc
import XCTest

/// The loop reads the fine clock only when a timer may be due: a frame-driven turn, with every
/// timer far off, costs no clock read (a system call and an HPET access under emulation).
final class EventLoopClockTests: XCTestCase {
    /// CLOCK_MONOTONIC with a coarse reading that lags it, as CLOCK_MONOTONIC_COARSE does;
    /// counts fine reads.
    private final class LaggingTime: TimeSource {
        var fine: Double
        let lag: Double
        var coarseBehind: Double
        private(set) var fineReads = 0
        init(_ fine: Double, lag: Double, coarseBehind: Double) { self.fine = fine; self.lag = lag; self.coarseBehind = coarseBehind }
        func now() -> Double { fineReads += 1; return fine }
        func coarseNow() -> Double { fine - coarseBehind }
        var coarseLag: Double { lag }
    }

    /// Due by the fine clock, not yet by the coarse one: it runs all the same.
    func testATimerDueBeforeTheCoarseClockShowsItStillRuns() throws {
        let time = LaggingTime(100, lag: 0.008, coarseBehind: 0.004)
        let loop = try EventLoop(time: time)
        var firedAt: [Double] = []
        let timer = loop.timer("test") { firedAt.append($0) }
        timer.schedule(at: 99.998)
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(firedAt, [100])
    }

    func testATurnWithEveryTimerFarOffReadsNoFineTime() throws {
        let time = LaggingTime(100, lag: 0.008, coarseBehind: 0.004)
        let loop = try EventLoop(time: time)
        var fired = 0
        let timer = loop.timer("far off") { _ in fired += 1 }
        timer.schedule(at: 105)
        let fd = try syscall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)) }
        defer { close(fd) }
        var handled = 0
        let watch = try loop.watch(fd, name: "flip") {
            var value: UInt64 = 0
            _ = read(fd, &value, 8)
            handled += 1
        }
        defer { _ = watch }
        try loop.runOnce(timeoutMilliseconds: 0)  // arms the alarm: one fine read
        let before = time.fineReads
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
        time.fine += 0.016
        try loop.runOnce(timeoutMilliseconds: 1000)
        XCTAssertEqual(handled, 1)
        XCTAssertEqual(time.fineReads - before, 0, "nothing was due and the alarm stayed where it was")
        XCTAssertEqual(fired, 0)
        time.fine = 105
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(fired, 1, "once the coarse clock cannot rule it out, the fine clock says it is due")
    }
}
