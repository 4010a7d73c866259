@testable import CarouselCore
import Glibc
import XCTest
@testable import carouseld
import TestSupport

/// sd_notify through libsystemd, read back from a real unix datagram socket.
final class NotifierTests: XCTestCase {
    func testStatesReachTheSocket() throws {
        let socket = try NotifySocket()
        let notifier = Notifier()
        notifier.ready()
        notifier.status("showing 3/12 beach.jpg")
        notifier.watchdog()
        notifier.stopping()
        XCTAssertEqual(socket.messages(), ["READY=1", "STATUS=showing 3/12 beach.jpg", "WATCHDOG=1", "STOPPING=1"])
    }

    func testReloadingCarriesMonotonicTime() throws {
        let socket = try NotifySocket()
        let notifier = Notifier()
        notifier.ready()
        let before = Notifier.monotonicMicroseconds()
        notifier.reloading()
        let after = Notifier.monotonicMicroseconds()
        notifier.reloaded()
        let messages = socket.messages()
        XCTAssertEqual(messages.count, 3)
        XCTAssertEqual(messages.last, "READY=1")
        let message = try XCTUnwrap(messages.dropFirst().first)
        let lines = message.split(separator: "\n")
        XCTAssertEqual(lines.first, "RELOADING=1")
        let stamp = try XCTUnwrap(lines.last.flatMap { UInt64($0.dropFirst("MONOTONIC_USEC=".count)) })
        XCTAssertTrue(lines.last?.hasPrefix("MONOTONIC_USEC=") ?? false)
        XCTAssertTrue((before...after).contains(stamp), "\(before) <= \(stamp) <= \(after)")
    }

    func testReloadsBeforeTheFirstFrameAreNotAnnounced() throws {
        let socket = try NotifySocket()
        let notifier = Notifier()
        notifier.reloading()
        notifier.reloaded()
        XCTAssertEqual(socket.messages(), [], "READY=1 must wait for the first frame")
        XCTAssertFalse(notifier.isReady)
        notifier.ready()
        XCTAssertTrue(notifier.isReady)
        XCTAssertEqual(socket.messages(), ["READY=1"])
    }

    func testStatusIsOneLine() throws {
        let socket = try NotifySocket()
        Notifier().status("config invalid: a\nb")
        XCTAssertEqual(socket.messages(), ["STATUS=config invalid: a b"])
    }

    func testNoSocketIsSilent() {
        unsetenv("NOTIFY_SOCKET")
        Notifier().ready() // must neither fail nor block
        XCTAssertFalse(Notifier.isSupervised)
    }

    func testWatchdogIntervalIsHalfOfWatchdogUSec() {
        defer { unsetenv("WATCHDOG_USEC"); unsetenv("WATCHDOG_PID") }
        unsetenv("WATCHDOG_USEC")
        XCTAssertNil(Notifier.watchdogInterval())
        setenv("WATCHDOG_USEC", "3000000", 1)
        setenv("WATCHDOG_PID", String(getpid()), 1)
        XCTAssertEqual(Notifier.watchdogInterval(), 1.5)
        setenv("WATCHDOG_PID", String(getpid() + 1), 1)
        XCTAssertNil(Notifier.watchdogInterval(), "the watchdog belongs to another process")
    }

    func testWatchdogPingsEachIntervalByTheLoopsClock() throws {
        let socket = try NotifySocket()
        let time = ManualTime(100)
        let loop = try EventLoop(time: time)
        let watchdog = Watchdog(interval: 1.0, notifier: Notifier(), loop: loop)
        XCTAssertEqual(watchdog.nextDeadline, 101)
        time.set(100.9); try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(watchdog.pings, 0)
        time.set(101.05); try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(watchdog.pings, 1)
        XCTAssertEqual(watchdog.nextDeadline, 102, "counted from the due time, not the late wakeup")
        XCTAssertEqual(socket.messages(), ["WATCHDOG=1"])
        let off = Watchdog(interval: nil, notifier: Notifier(), loop: loop)
        XCTAssertNil(off.nextDeadline)
        time.set(1e9); try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(off.pings, 0)
    }

    func testStatusLineTexts() {
        XCTAssertEqual(StatusLine.showing(index: 2, count: 12, name: "beach.jpg"), "showing 3/12 beach.jpg")
        XCTAssertEqual(StatusLine.invalid(["f:1: a: b"]), "config invalid: f:1: a: b")
        XCTAssertEqual(StatusLine.invalid(["f:1: a: b", "f:2: c: d", "f:3: e: f"]), "config invalid: f:1: a: b (and 2 more)")
    }
}
