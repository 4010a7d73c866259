@testable import CarouselCore
import XCTest

/// The loop's gaps while animating, with the kernel's lateness in waking it taken apart.
final class StallMeterTests: XCTestCase {
    /// A wakeup 74 ms after the deadline the loop slept to: the gap is 90 ms as the loop saw
    /// it, 16 ms of it the daemon's own (the sleep it chose).
    func testALateWakeupIsTheKernelsPart() {
        let clock = ManualTime(0)
        let meter = StallMeter(time: clock)
        meter.animating(ObjectIdentifier(self), true)
        meter.woke(at: 0, sleptUntil: nil)
        meter.turnEnded()
        meter.woke(at: 0.090, sleptUntil: 0.016)
        let gaps = meter.takeGaps()
        XCTAssertEqual(gaps.longest, 0.090, accuracy: 1e-9)
        XCTAssertEqual(gaps.longestOwn, 0.016, accuracy: 1e-9)
        XCTAssertEqual(gaps.latestWake, 0.074, accuracy: 1e-9)
        XCTAssertTrue(gaps.longestOwnParts.contains("woken 74 ms after its deadline"), gaps.longestOwnParts)
        XCTAssertEqual(meter.takeGaps(), AnimatingGaps(), "taken: measured afresh")
    }

    /// A handler that held the loop 60 ms is the daemon's, named; a wakeup before the deadline
    /// (a descriptor) takes nothing off.
    func testABusyHandlerIsTheDaemonsOwn() {
        let clock = ManualTime(0)
        let meter = StallMeter(time: clock)
        meter.animating(ObjectIdentifier(self), true)
        meter.woke(at: 0, sleptUntil: nil)
        meter.ran("slow handler") { clock.advance(by: 0.060) }
        meter.turnEnded()
        meter.woke(at: 0.070, sleptUntil: 0.080)
        let gaps = meter.takeGaps()
        XCTAssertEqual(gaps.longestOwn, 0.070, accuracy: 1e-9)
        XCTAssertEqual(gaps.latestWake, 0)
        XCTAssertTrue(gaps.longestOwnParts.hasPrefix("busy 60 ms, longest 60 ms in slow handler"), gaps.longestOwnParts)
    }

    /// A gap that begins at rest is no animation's: nothing is measured. Nothing animates
    /// until a part says so, and once the last part that did says it stopped.
    func testAGapFromRestIsNotMeasured() {
        let meter = StallMeter(time: ManualTime(0))
        meter.woke(at: 0, sleptUntil: nil)
        meter.turnEnded()
        meter.woke(at: 5, sleptUntil: 1)
        XCTAssertEqual(meter.takeGaps(), AnimatingGaps())
        let (one, other) = (ObjectIdentifier(meter), ObjectIdentifier(self))
        meter.animating(one, true); meter.animating(other, true); meter.animating(one, false)
        meter.turnEnded()
        meter.woke(at: 5.5, sleptUntil: 1)
        XCTAssertEqual(meter.takeGaps().longest, 0.5, accuracy: 1e-9, "one part still animates")
        meter.animating(other, false)
        meter.turnEnded()
        meter.woke(at: 9, sleptUntil: 1)
        XCTAssertEqual(meter.takeGaps(), AnimatingGaps())
    }
}
