@testable import CarouselCore
import CLinux
import Glibc
import XCTest

/// The epoll loop and its descriptor sources, on real kernel objects.
final class EventLoopTests: XCTestCase {
    private func makeEventFD() throws -> Int32 {
        try syscall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)) }
    }

    private func signal(_ fd: Int32) {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    private func drain(_ fd: Int32) {
        var value: UInt64 = 0
        _ = read(fd, &value, 8)
    }

    func testAReadyDescriptorCallsItsHandlerOnly() throws {
        let loop = try EventLoop()
        let a = try makeEventFD(), b = try makeEventFD()
        defer { close(a); close(b) }
        var calls: [String] = []
        let watchA = try loop.watch(a, name: "test") { calls.append("a"); self.drain(a) }
        let watchB = try loop.watch(b, name: "test") { calls.append("b"); self.drain(b) }
        defer { _ = (watchA, watchB) }
        signal(b)
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 1000), 1)
        XCTAssertEqual(calls, ["b"])
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 0), 0)
        XCTAssertEqual(calls, ["b"])
    }

    /// A hitch while animating is logged with the handler that held the loop, by name.
    func testAStallNamesTheSlowestHandler() throws {
        var logged: [String] = []
        Log.sink = { _, line in logged.append(line) }
        defer { Log.sink = nil }
        let clock = ManualTime(0)
        let loop = try EventLoop(time: clock)
        let meter = StallMeter(time: clock)
        loop.observer = meter
        meter.animating(ObjectIdentifier(self), true)
        let fast = try makeEventFD(), slow = try makeEventFD()
        defer { close(fast); close(slow) }
        let quick = try loop.watch(fast, name: "quick one") { self.drain(fast) }
        let decoder = try loop.watch(slow, name: "slow decoder") { self.drain(slow); clock.advance(by: 0.15) }
        defer { _ = (quick, decoder) }
        signal(fast); signal(slow)
        try loop.runOnce(timeoutMilliseconds: 1000)
        signal(fast)
        try loop.runOnce(timeoutMilliseconds: 1000)
        let stall = try XCTUnwrap(logged.first { $0.hasPrefix("loop stalled") }, "\(logged)")
        XCTAssertTrue(stall.contains("in slow decoder"), stall)
        XCTAssertGreaterThanOrEqual(meter.takeLongestGap(), 0.15)
    }

    func testADroppedWatchNoLongerCalls() throws {
        let loop = try EventLoop()
        let fd = try makeEventFD()
        defer { close(fd) }
        var calls = 0
        var watch: Watch? = try loop.watch(fd, name: "test") { calls += 1 }
        XCTAssertNotNil(watch)
        watch = nil
        signal(fd)
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 0), 0)
        XCTAssertEqual(calls, 0)
    }

    /// A descriptor closed and its number reused: the old token going away later must not
    /// take the new descriptor's watch with it.
    func testAnOldTokenDoesNotDropTheWatchOfAReusedNumber() throws {
        let loop = try EventLoop()
        let first = try makeEventFD()
        var old: Watch? = try loop.watch(first, name: "old") {}
        close(first)
        let second = try makeEventFD()
        defer { close(second) }
        XCTAssertEqual(second, first, "the kernel hands out the lowest free number")
        var calls = 0
        let current = try loop.watch(second, name: "new") { calls += 1; self.drain(second) }
        old = nil
        signal(second)
        try loop.runOnce(timeoutMilliseconds: 1000)
        XCTAssertEqual(calls, 1)
        _ = (old, current)
    }

    func testPostedWorkRunsAfterTheHandlerWithoutWaiting() throws {
        let loop = try EventLoop()
        let fd = try makeEventFD()
        defer { close(fd) }
        var order: [String] = []
        let watch = try loop.watch(fd, name: "test") {
            self.drain(fd)
            loop.post { order.append("posted") }
            order.append("handler")
        }
        signal(fd)
        try loop.runOnce(timeoutMilliseconds: 1000)
        XCTAssertEqual(order, ["handler", "posted"])
        // Work posted from outside a handler runs before the loop sleeps.
        loop.post { order.append("second") }
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(order.last, "second")
        _ = watch
    }

    func testStopEndsRun() throws {
        let loop = try EventLoop()
        let fd = try makeEventFD()
        defer { close(fd) }
        let watch = try loop.watch(fd, name: "test") { self.drain(fd); loop.stop() }
        defer { _ = watch }
        signal(fd)
        try loop.run()
        XCTAssertGreaterThanOrEqual(loop.wakeups, 1)
    }

    /// Timers are due by the loop's clock: a test moves it, and nothing sleeps.
    func testATimerRunsOnceItsDeadlineIsReachedAndNotBefore() throws {
        let time = ManualTime(100)
        let loop = try EventLoop(time: time)
        var firedAt: [Double] = []
        let timer = loop.timer("test") { firedAt.append($0) }
        timer.schedule(at: 101)
        XCTAssertEqual(loop.nextDeadline, 101)
        time.set(100.99)
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(firedAt, [])
        time.set(101.5)
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(firedAt, [101.5], "run with the loop's now")
        XCTAssertNil(timer.deadline, "a timer runs once per schedule")
        time.set(200)
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(firedAt.count, 1)
    }

    func testTimersRunEarliestFirstAndMayRescheduleThemselves() throws {
        let time = ManualTime(0)
        let loop = try EventLoop(time: time)
        var order: [String] = []
        var late: LoopTimer!
        late = loop.timer("late") { _ in order.append("late") }
        var repeats = 0
        var early: LoopTimer!
        early = loop.timer("early") { now in
            order.append("early")
            repeats += 1
            if repeats < 3 { early.schedule(at: now + 1) }
        }
        late.schedule(at: 2)
        early.schedule(at: 1)
        time.set(2)
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(order, ["early", "late"])
        time.set(3); try loop.runOnce(timeoutMilliseconds: 0)
        time.set(10); try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(order, ["early", "late", "early", "early"])
        XCTAssertNil(early.deadline)
    }

    func testUnscheduledAndDroppedTimersDoNotRun() throws {
        let time = ManualTime(0)
        let loop = try EventLoop(time: time)
        var fired = 0
        let unscheduled = loop.timer("test") { _ in fired += 1 }
        unscheduled.schedule(at: 1)
        unscheduled.schedule(at: nil)
        var dropped: LoopTimer? = loop.timer("test") { _ in fired += 1 }
        dropped?.schedule(at: 1)
        dropped = nil
        XCTAssertNil(loop.nextDeadline)
        time.set(5)
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(fired, 0)
    }

    /// With the real clock, the loop sleeps until the earliest deadline and no longer.
    func testTheLoopWakesForADeadlineOnTheRealClock() throws {
        let loop = try EventLoop()
        var firedAt: Double?
        let timer = loop.timer("test") { firedAt = $0 }
        let deadline = MonotonicClock.now() + 0.05
        timer.schedule(at: deadline)
        try loop.runOnce(timeoutMilliseconds: 2000)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(firedAt, "one sleep reached the deadline"), deadline)
        XCTAssertLessThan(MonotonicClock.now() - deadline, 1.0, "it did not sleep the whole timeout")
    }

    func testSignalsArriveOnTheSignalDescriptor() throws {
        let loop = try EventLoop()
        let signals = try SignalSource(signals: [SIGUSR1])
        var received: [Int32] = []
        let watch = try loop.watch(signals.fd, name: "test") { received += signals.drain() }
        defer { _ = watch }
        // Thread-directed: other test threads do not block SIGUSR1 and would die of it.
        pthread_kill(pthread_self(), SIGUSR1)
        try loop.runOnce(timeoutMilliseconds: 1000)
        XCTAssertEqual(received, [SIGUSR1])
    }

    func testNothingRunsAfterStopInTheSameTurn() throws {
        let loop = try EventLoop()
        let a = try makeEventFD(), b = try makeEventFD()
        defer { close(a); close(b) }
        var ran: [String] = []
        let stopper = { ran.append("stop"); loop.post { ran.append("posted") }; loop.stop() }
        let watches = [try loop.watch(a, name: "test") { self.drain(a); stopper() },
                       try loop.watch(b, name: "test") { self.drain(b); stopper() }]
        defer { _ = watches }
        signal(a); signal(b)
        try loop.run()
        XCTAssertEqual(ran, ["stop"], "a second ready handler or posted work ran after stop()")
    }
}

extension EventLoopTests {
    /// A timer that keeps scheduling itself in the past (a deadline computed from a clock that
    /// stands still) must not hold the loop: once per turn, and the turn ends.
    func testATimerDueAgainAtOnceRunsOncePerTurn() throws {
        let time = ManualTime(10)
        let loop = try EventLoop(time: time)
        var runs = 0
        var timer: LoopTimer!
        timer = loop.timer("test") { _ in runs += 1; timer.schedule(at: 5) }
        timer.schedule(at: 5)
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(runs, 2, "once before sleeping, once after: the turn ends")
        let start = MonotonicClock.now()
        try loop.runOnce(timeoutMilliseconds: 1000)
        XCTAssertEqual(runs, 4)
        XCTAssertLessThan(MonotonicClock.now() - start, 0.5, "a turn does not sleep while a timer is due")
    }
}
