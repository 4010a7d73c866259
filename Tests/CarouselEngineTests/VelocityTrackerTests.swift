import XCTest
@testable import CarouselEngine

final class VelocityTrackerTests: XCTestCase {
    private func track(_ times: [Double], x: (Double) -> Double, y: (Double) -> Double = { _ in 0 }) -> VelocityTracker {
        var tracker = VelocityTracker()
        for t in times { tracker.add(time: t, x: x(t), y: y(t)) }
        return tracker
    }

    private func times(from start: Double, to end: Double, every dt: Double) -> [Double] {
        (0...Int(((end - start) / dt).rounded())).map { start + Double($0) * dt }
    }

    func testConstantVelocity() {
        let ts = times(from: 10, to: 10.2, every: 0.008)
        let tracker = track(ts, x: { 100 + 800 * ($0 - 10) }, y: { -250 * ($0 - 10) })
        let v = tracker.velocity(at: ts.last!)
        XCTAssertEqual(v.x, 800, accuracy: 1e-6)
        XCTAssertEqual(v.y, -250, accuracy: 1e-6)
    }

    /// A quadratic fit is exact for constant acceleration: v = v₀ + a·t at the newest sample.
    func testConstantAcceleration() {
        let ts = times(from: 0, to: 0.08, every: 0.008)
        let tracker = track(ts, x: { 5 + 300 * $0 + 0.5 * 2000 * $0 * $0 })
        XCTAssertEqual(tracker.velocity(at: 0.08).x, 300 + 2000 * 0.08, accuracy: 1e-6)
        // Decelerating finger, irregular timestamps.
        let irregular = [0.0, 0.007, 0.015, 0.021, 0.03, 0.038, 0.047, 0.052]
        let slowing = track(irregular, x: { 1200 * $0 - 0.5 * 9000 * $0 * $0 })
        XCTAssertEqual(slowing.velocity(at: 0.052).x, 1200 - 9000 * 0.052, accuracy: 1e-6)
    }

    /// A left swipe recorded in a loaded VM: 51 ms without events, then four in 2 ms. The
    /// quadratic fit's end turned back (+8000 px/s after the clamp, a right fling); the finger
    /// was still moving left, and the release must say so.
    func testABurstAfterAStallKeepsTheFingersDirection() {
        let ms = [167.260, 218.808, 219.711, 220.353, 220.941, 225.330, 237.334]
        let xs = [416.0, 378, 341, 304, 266, 229, 192]
        var tracker = VelocityTracker()
        for (t, x) in zip(ms, xs) { tracker.add(time: t / 1000, x: x, y: 0) }
        let v = tracker.velocity(at: 0.255262)
        XCTAssertLessThan(v.x, -5000, "a fast left swipe")
    }

    func testAFingerThatRestedBeforeLiftingHasZeroVelocity() {
        let ts = times(from: 0, to: 0.1, every: 0.01)
        let tracker = track(ts, x: { 1000 * $0 })
        XCTAssertEqual(tracker.velocity(at: 0.1 + 0.041).x, 0)
        XCTAssertEqual(tracker.velocity(at: 0.1 + 0.039).x, 1000, accuracy: 1e-6)
    }

    /// A pause of more than 40 ms inside the track ends the earlier motion: only what follows counts.
    func testAPauseSeparatesMotions() {
        var tracker = VelocityTracker()
        for t in [0.0, 0.01, 0.02, 0.03] { tracker.add(time: t, x: -3000 * t, y: 0) }
        tracker.add(time: 0.08, x: -90, y: 0)
        tracker.add(time: 0.09, x: -88, y: 0)
        XCTAssertEqual(tracker.velocity(at: 0.09).x, 200, accuracy: 1e-9)
    }

    /// Samples older than 100 ms are ignored: a reversal before that window does not leak in.
    func testOnlyTheLast100msCount() {
        let ts = times(from: 0, to: 0.3, every: 0.01)
        let tracker = track(ts, x: { $0 <= 0.19 ? -1000 * $0 : -190 + 500 * ($0 - 0.19) })
        XCTAssertEqual(tracker.velocity(at: 0.3).x, 500, accuracy: 1e-6)
        // With a window of 110 ms the kink would be inside and bend the fit.
        let bent = track(times(from: 0, to: 0.3, every: 0.01), x: { $0 <= 0.21 ? -1000 * $0 : -210 + 500 * ($0 - 0.21) })
        XCTAssertGreaterThan(abs(bent.velocity(at: 0.3).x - 500), 1)
    }

    /// At most 20 samples: with 2 ms sampling the reversal 40 ms back is already out of the fit.
    func testOnlyTheLast20SamplesCount() {
        let ts = times(from: 0, to: 0.1, every: 0.002)
        let tracker = track(ts, x: { $0 <= 0.062 ? -1000 * $0 : -62 + 500 * ($0 - 0.062) })
        XCTAssertEqual(tracker.samples.count, 20)
        XCTAssertEqual(tracker.velocity(at: 0.1).x, 500, accuracy: 1e-6)
        let later = track(ts, x: { $0 <= 0.064 ? -1000 * $0 : -64 + 500 * ($0 - 0.064) })
        XCTAssertGreaterThan(abs(later.velocity(at: 0.1).x - 500), 1, "a kink within 20 samples bends the fit")
    }

    func testFewSamples() {
        XCTAssertEqual(VelocityTracker().velocity(at: 1).x, 0)
        XCTAssertEqual(track([1], x: { _ in 5 }).velocity(at: 1).x, 0)
        XCTAssertEqual(track([1, 1.01], x: { 300 * $0 }).velocity(at: 1.01).x, 300, accuracy: 1e-9)
        // Duplicate timestamps must not produce NaN or infinity.
        var dup = VelocityTracker()
        for x in [0.0, 5, 10] { dup.add(time: 2, x: x, y: 0) }
        XCTAssertEqual(dup.velocity(at: 2).x, 0)
    }

    /// Through the engine: a swipe of 300 px in 120 ms releases at -2500 px/s.
    func testReleaseReportsTheFingerVelocity() {
        var engine = Fixture.engine()
        var events: [CarouselEvent] = []
        engine.swipe(from: 900, to: 600, at: 1, duration: 0.12, steps: 8, events: &events)
        XCTAssertEqual(events.releases.count, 1)
        XCTAssertEqual(events.releases.first?.vx ?? 0, -2500, accuracy: 1e-6)
    }
}
