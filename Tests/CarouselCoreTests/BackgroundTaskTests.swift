@testable import CarouselCore
import CLinux
import Glibc
import XCTest

/// Work off the loop: its result is handed to the loop, from a thread nicer than the loop.
final class BackgroundTaskTests: XCTestCase {
    /// PRIO_PROCESS with 0 is the calling thread on Linux.
    private static func threadNice() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

    /// Turns the loop until `done` (the wakeup comes from the task's thread; no sleeping).
    private func run(_ loop: EventLoop, until done: () -> Bool) throws {
        var turns = 0
        while !done() && turns < 100 {
            try loop.runOnce(timeoutMilliseconds: 10_000)
            turns += 1
        }
    }

    func testTheResultArrivesOnTheLoopThread() throws {
        let loop = try EventLoop()
        let task = BackgroundTask<Int>(name: "test-task", loop: loop)
        let loopThread = pthread_self()
        var results: [Int] = []
        var onLoop = false
        task.start({ 6 * 7 }) { results.append($0); onLoop = pthread_equal(pthread_self(), loopThread) != 0 }
        XCTAssertTrue(task.isRunning)
        task.start({ 0 }) { results.append($0) }  // one run at a time: ignored
        try run(loop) { !results.isEmpty }
        XCTAssertEqual(results, [42])
        XCTAssertTrue(onLoop)
        XCTAssertFalse(task.isRunning)
    }

    /// A task dropped while its work runs delivers nothing.
    func testADroppedTaskDeliversNothing() throws {
        let loop = try EventLoop()
        var task: BackgroundTask<Int>? = BackgroundTask(name: "test-dropped", loop: loop)
        let gate = ConditionLock()
        var open = false
        var delivered = false
        task?.start({
            gate.lock(); while !open { gate.wait() }; gate.unlock()
            return 1
        }) { _ in delivered = true }
        task = nil
        gate.withLock { open = true }
        gate.broadcast()
        // Nothing else is on the loop: the one wakeup is the work's result being handed over.
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 10_000), 1)
        XCTAssertFalse(delivered)
    }

    /// On a one-core board the loop must preempt a decode or a load, not wait out its slice.
    func testTheWorkRunsNicerThanTheLoop() throws {
        let loop = try EventLoop()
        let loopNice = Self.threadNice()
        let task = BackgroundTask<Int32>(name: "test-nice", loop: loop)
        var nice: Int32?
        task.start({ Self.threadNice() }) { nice = $0 }
        try run(loop) { nice != nil }
        XCTAssertEqual(nice, min(19, loopNice + DetachedThread.backgroundNice))
        XCTAssertEqual(Self.threadNice(), loopNice, "the calling thread keeps its priority")
    }
}
