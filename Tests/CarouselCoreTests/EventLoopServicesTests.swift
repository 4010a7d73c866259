@testable import CarouselCore
import Glibc
import XCTest

/// What the loop does for the daemon's services: wall-clock timers on one realtime timerfd,
/// and work handed over from other threads with one wakeup.
final class EventLoopServicesTests: XCTestCase {
    func testAWallClockTimerRunsOnceItsTimeHasComeAndNotBefore() throws {
        let loop = try EventLoop()
        var causes: [String: [WallClockTimer.Cause]] = [:]
        let past = loop.wallClockTimer("past") { causes["past", default: []].append($0) }
        let future = loop.wallClockTimer("future") { causes["future", default: []].append($0) }
        future.schedule(at: WallClock.now() + 3600)
        past.schedule(at: WallClock.now() - 1)
        XCTAssertEqual(loop.nextWallClockDeadline, past.deadline)
        // The kernel's realtime timer wakes the loop: nothing else is ready.
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 5000), 1)
        XCTAssertEqual(causes, ["past": [.due]])
        XCTAssertNil(past.deadline, "a wall-clock timer runs once per schedule")
        XCTAssertEqual(loop.nextWallClockDeadline, future.deadline)
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 0), 0, "the next deadline is an hour off")
        XCTAssertEqual(causes, ["past": [.due]])
    }

    /// The kernel reports a set clock as ECANCELED on the read (setting it needs root): every
    /// scheduled timer works its deadline out again, and one that is due by then runs.
    func testASetClockRunsEveryScheduledWallClockTimerWithItsDeadlineKept() throws {
        let loop = try EventLoop()
        var calls: [String] = []
        let later = WallClock.now() + 3600
        let kept = loop.wallClockTimer("kept") { calls.append("kept \($0)") }
        var moved: WallClockTimer!
        moved = loop.wallClockTimer("moved") { cause in
            calls.append("moved \(cause)")
            if cause == .clockSet { moved.schedule(at: WallClock.now() - 1) }  // due by the new clock
        }
        let unscheduled = loop.wallClockTimer("unscheduled") { calls.append("unscheduled \($0)") }
        var dropped: WallClockTimer? = loop.wallClockTimer("dropped") { calls.append("dropped \($0)") }
        kept.schedule(at: later)
        moved.schedule(at: later + 1)
        dropped?.schedule(at: later)
        dropped = nil
        loop.wallClockWasSet()
        XCTAssertEqual(calls, ["kept clockSet", "moved clockSet", "moved due"])
        XCTAssertEqual(kept.deadline, later, "the deadline stays unless the action moves it")
        XCTAssertNil(moved.deadline)
        XCTAssertEqual(loop.nextWallClockDeadline, later)
        _ = unscheduled
    }

    /// Arming the realtime timerfd again makes the kernel forget a set of the clock it had not
    /// reported yet (a deadline came just before `date -s`, and the loop re-armed just after):
    /// the loop sees the wall clock's offset moved since it armed, and reports the set itself.
    func testASetOfTheClockThatReArmingHidFromTheKernelIsStillReported() throws {
        var offset = 1000.0
        let loop = try EventLoop(wallOffset: WallClockOffset(read: { offset }))
        var causes: [WallClockTimer.Cause] = []
        let synced = loop.wallClockTimer("synced") { causes.append($0) }
        let later = WallClock.now() + 3600
        synced.schedule(at: later)
        offset += 0.01  // reads a few milliseconds apart: not a set
        synced.schedule(at: later - 1)
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 0), 0)
        XCTAssertEqual(causes, [])
        offset += 12  // `date -s` twelve seconds ahead, then an arming before the kernel's report was read
        synced.schedule(at: later - 2)
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 0), 0)
        XCTAssertEqual(causes, [.clockSet], "told once, after the handler that armed")
        XCTAssertEqual(synced.deadline, later - 2)
        synced.schedule(at: later - 3)
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 0), 0)
        XCTAssertEqual(causes, [.clockSet], "the offset armed with since then is the new one")
        synced.schedule(at: nil)
        offset -= 30  // set while nothing waits on the clock
        synced.schedule(at: later)
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 0), 0)
        XCTAssertEqual(causes, [.clockSet], "a deadline scheduled after the set is already on the new clock")
    }

    func testAnUnscheduledOrDroppedWallClockTimerDoesNotRun() throws {
        let loop = try EventLoop()
        var fired = 0
        let unscheduled = loop.wallClockTimer("unscheduled") { _ in fired += 1 }
        unscheduled.schedule(at: WallClock.now() - 1)
        unscheduled.schedule(at: nil)
        var dropped: WallClockTimer? = loop.wallClockTimer("dropped") { _ in fired += 1 }
        dropped?.schedule(at: WallClock.now() - 1)
        dropped = nil
        XCTAssertNil(loop.nextWallClockDeadline)
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 0), 0, "the realtime timer was disarmed")
        XCTAssertEqual(fired, 0)
    }

    /// A burst of work from elsewhere wakes the loop once and runs in the order it came.
    func testExecutedWorkRunsInOrderAfterOneWakeup() throws {
        let loop = try EventLoop()
        var ran: [Int] = []
        for index in 0..<100 { loop.execute { ran.append(index) } }
        XCTAssertEqual(ran, [], "nothing runs before the loop does")
        XCTAssertEqual(loop.executor.wakeupsSignalled, 1, "the eventfd is written for the first only")
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 1000), 1, "one descriptor for all of it")
        XCTAssertEqual(ran, Array(0..<100))
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 0), 0, "the wakeup was consumed")
        loop.execute { ran.append(100) }
        XCTAssertEqual(loop.executor.wakeupsSignalled, 2, "an empty queue again: a new wakeup")
        try loop.runOnce(timeoutMilliseconds: 1000)
        XCTAssertEqual(ran.last, 100)
    }

    /// Work still queued when a handler stops the loop runs on the next run, not never.
    func testExecutedWorkLeftByStopRunsOnTheNextRun() throws {
        let loop = try EventLoop()
        var ran: [String] = []
        loop.execute { ran.append("stops"); loop.stop() }
        loop.execute { ran.append("after"); loop.stop() }
        try loop.run()
        XCTAssertEqual(ran, ["stops"], "nothing runs after stop()")
        // Lost work would leave the next run waiting: it ends after 5 s then, and fails.
        let giveUp = loop.timer("give up") { _ in loop.stop() }
        giveUp.schedule(at: loop.time.now() + 5)
        try loop.run()
        XCTAssertEqual(ran, ["stops", "after"])
    }

    /// Work queued on other threads runs on the loop's thread, each item once.
    func testWorkFromOtherThreadsRunsOnTheLoopThread() throws {
        let loop = try EventLoop()
        let executor = loop.executor
        let loopThread = pthread_self()
        var ran = 0
        var offThread = 0
        let threads = 4, each = 250
        for index in 0..<threads {
            DetachedThread.start(name: "test-execute-\(index)") {
                for _ in 0..<each {
                    executor.execute {
                        ran += 1
                        if pthread_equal(pthread_self(), loopThread) == 0 { offThread += 1 }
                    }
                }
            }
        }
        var turns = 0
        while ran < threads * each && turns < 10_000 {
            try loop.runOnce(timeoutMilliseconds: 10_000)
            turns += 1
        }
        XCTAssertEqual(ran, threads * each)
        XCTAssertEqual(offThread, 0)
        XCTAssertLessThanOrEqual(loop.wakeups, threads * each, "at most one wakeup per item, fewer in bursts")
    }
}
