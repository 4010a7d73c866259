@testable import CarouselCore
import CLinux
import Glibc
import XCTest
@testable import carouseld

/// Work off the loop: its result arrives through an eventfd, on a thread nicer than the loop.
final class BackgroundTaskTests: XCTestCase {
    private func waitReadable(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 10_000) == 1
    }

    /// PRIO_PROCESS with 0 is the calling thread on Linux.
    private static func threadNice() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

    func testResultArrivesThroughTheEventFD() throws {
        let task = try BackgroundTask<Int>(name: "test-task")
        XCTAssertNil(task.take())
        task.start { 6 * 7 }
        XCTAssertTrue(waitReadable(task.fd))
        XCTAssertEqual(task.take(), 42)
        XCTAssertFalse(task.isRunning)
    }

    /// On a one-core board the loop must preempt a decode or a load, not wait out its slice.
    func testTheWorkRunsNicerThanTheLoop() throws {
        let loopNice = Self.threadNice()
        let task = try BackgroundTask<Int32>(name: "test-nice")
        task.start { Self.threadNice() }
        XCTAssertTrue(waitReadable(task.fd))
        XCTAssertEqual(task.take(), min(19, loopNice + DetachedThread.backgroundNice))
        XCTAssertEqual(Self.threadNice(), loopNice, "the calling thread keeps its priority")
    }
}
