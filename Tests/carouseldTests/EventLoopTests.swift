import CInput
import Glibc
import XCTest
@testable import carouseld

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
        try loop.add(fd: a, name: "test") { calls.append("a"); self.drain(a) }
        try loop.add(fd: b, name: "test") { calls.append("b"); self.drain(b) }
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
        let loop = try EventLoop()
        loop.isAnimating = { true }
        let fast = try makeEventFD(), slow = try makeEventFD()
        defer { close(fast); close(slow) }
        try loop.add(fd: fast, name: "quick one") { self.drain(fast) }
        try loop.add(fd: slow, name: "slow decoder") { self.drain(slow); usleep(150_000) }
        signal(fast); signal(slow)
        try loop.runOnce(timeoutMilliseconds: 1000)
        signal(fast)
        try loop.runOnce(timeoutMilliseconds: 1000)
        let stall = try XCTUnwrap(logged.first { $0.hasPrefix("loop stalled") }, "\(logged)")
        XCTAssertTrue(stall.contains("in slow decoder"), stall)
        XCTAssertGreaterThanOrEqual(loop.takeLongestAnimatingGap(), 0.15)
    }

    func testARemovedDescriptorIsNoLongerWatched() throws {
        let loop = try EventLoop()
        let fd = try makeEventFD()
        defer { close(fd) }
        var calls = 0
        try loop.add(fd: fd, name: "test") { calls += 1 }
        loop.remove(fd: fd)
        signal(fd)
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 0), 0)
        XCTAssertEqual(calls, 0)
    }

    func testPostedWorkRunsAfterTheHandlerWithoutWaiting() throws {
        let loop = try EventLoop()
        let fd = try makeEventFD()
        defer { close(fd) }
        var order: [String] = []
        try loop.add(fd: fd, name: "test") {
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
    }

    func testStopEndsRun() throws {
        let loop = try EventLoop()
        let fd = try makeEventFD()
        defer { close(fd) }
        try loop.add(fd: fd, name: "test") { self.drain(fd); loop.stop() }
        signal(fd)
        try loop.run()
        XCTAssertGreaterThanOrEqual(loop.wakeups, 1)
    }

    func testTheDeadlineTimerFiresAtItsAbsoluteTimeAndNotBefore() throws {
        let loop = try EventLoop()
        let timer = try DeadlineTimer()
        var firedAt: Double?
        try loop.add(fd: timer.fd, name: "test") { if timer.acknowledge() { firedAt = MonotonicClock.now() } }
        let deadline = MonotonicClock.now() + 0.05
        try timer.arm(at: deadline)
        XCTAssertEqual(timer.deadline, deadline)
        while firedAt == nil { try loop.runOnce(timeoutMilliseconds: 1000) }
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(firedAt), deadline)
        XCTAssertNil(timer.deadline)
    }

    func testADisarmedTimerDoesNotFire() throws {
        let loop = try EventLoop()
        let timer = try DeadlineTimer()
        var fired = false
        try loop.add(fd: timer.fd, name: "test") { fired = timer.acknowledge() }
        try timer.arm(at: MonotonicClock.now() + 0.02)
        try timer.arm(at: nil)
        try loop.runOnce(timeoutMilliseconds: 60)
        XCTAssertFalse(fired)
    }

    func testADeadlineInThePastFiresAtOnce() throws {
        let loop = try EventLoop()
        let timer = try DeadlineTimer()
        var fired = false
        try loop.add(fd: timer.fd, name: "test") { fired = timer.acknowledge() }
        try timer.arm(at: MonotonicClock.now() - 10)
        try loop.runOnce(timeoutMilliseconds: 1000)
        XCTAssertTrue(fired)
    }

    func testSignalsArriveOnTheSignalDescriptor() throws {
        let loop = try EventLoop()
        let signals = try SignalSource(signals: [SIGUSR1])
        var received: [Int32] = []
        try loop.add(fd: signals.fd, name: "test") { received += signals.drain() }
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
        try loop.add(fd: a, name: "test") { self.drain(a); stopper() }
        try loop.add(fd: b, name: "test") { self.drain(b); stopper() }
        signal(a); signal(b)
        try loop.run()
        XCTAssertEqual(ran, ["stop"], "a second ready handler or posted work ran after stop()")
    }
}
