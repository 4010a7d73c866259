import XCTest
@testable import CarouselEngine

final class SpringTests: XCTestCase {
    /// An independent check: integrate x'' = -k·x - c·x' with classic Runge-Kutta in tiny steps.
    private func integrate(_ spring: Spring, x0: Double, v0: Double, until t: Double) -> (x: Double, v: Double) {
        let k = spring.stiffness, c = spring.damping, dt = 1e-5
        var x = x0, v = v0
        func f(_ x: Double, _ v: Double) -> (Double, Double) { (v, -k * x - c * v) }
        for _ in 0..<Int((t / dt).rounded()) {
            let a = f(x, v), b = f(x + dt / 2 * a.0, v + dt / 2 * a.1)
            let c3 = f(x + dt / 2 * b.0, v + dt / 2 * b.1), d = f(x + dt * c3.0, v + dt * c3.1)
            x += dt / 6 * (a.0 + 2 * b.0 + 2 * c3.0 + d.0)
            v += dt / 6 * (a.1 + 2 * b.1 + 2 * c3.1 + d.1)
        }
        return (x, v)
    }

    func testSwiftUIParameterisation() {
        let s = Spring(response: 0.5, dampingFraction: 0.825)
        XCTAssertEqual(s.stiffness, 157.9137, accuracy: 1e-4)
        XCTAssertEqual(s.damping, 20.7345, accuracy: 1e-4)
    }

    func testClosedFormMatchesIntegrationForAllDampingRegimes() {
        for (damping, x0, v0) in [(0.3, 1.0, 0.0), (0.825, -2.0, 15.0), (1.0, 1.0, -4.0), (2.0, 0.5, 30.0), (4.0, 1.0, 0.0)] {
            let spring = Spring(response: 0.5, dampingFraction: damping)
            for t in [0.05, 0.1, 0.3, 0.7] {
                let exact = spring.state(x0: x0, v0: v0, t: t), numeric = integrate(spring, x0: x0, v0: v0, until: t)
                XCTAssertEqual(exact.x, numeric.x, accuracy: 1e-8, "ζ=\(damping) t=\(t)")
                XCTAssertEqual(exact.v, numeric.v, accuracy: 1e-6, "ζ=\(damping) t=\(t)")
            }
            XCTAssertEqual(spring.state(x0: x0, v0: v0, t: 0).x, x0, accuracy: 1e-12)
            XCTAssertEqual(spring.state(x0: x0, v0: v0, t: 0).v, v0, accuracy: 1e-12)
        }
    }

    func testKnownValues() {
        // Critically damped from rest: x = (1 + ω₀t)e^{-ω₀t} with ω₀ = 4π.
        XCTAssertEqual(Spring(response: 0.5, dampingFraction: 1).state(x0: 1, v0: 0, t: 0.1).x, 0.642260443530, accuracy: 1e-11)
        // Under-damped in amplitude-phase form: x = A e^{-ζω₀t} cos(ωd t - φ).
        let w0 = 4 * Double.pi, z = 0.825, wd = w0 * (1 - z * z).squareRoot()
        let phi = atan(z * w0 / wd), amplitude = 1 / cos(phi)
        for t in [0.05, 0.2, 0.45] {
            let expected = amplitude * exp(-z * w0 * t) * cos(wd * t - phi)
            XCTAssertEqual(Spring(response: 0.5, dampingFraction: z).state(x0: 1, v0: 0, t: t).x, expected, accuracy: 1e-12)
        }
        // Over-damped never crosses the rest point when released from rest.
        let over = Spring(response: 0.5, dampingFraction: 2)
        XCTAssertEqual(over.state(x0: 1, v0: 0, t: 0.1).x, 0.768638490898, accuracy: 1e-9)
        for i in 1...100 { XCTAssertGreaterThan(over.state(x0: 1, v0: 0, t: Double(i) * 0.02).x, 0) }
    }

    /// The same release sampled at 30, 60, 144 Hz and at irregular times gives the same frame.
    func testFramesDoNotDependOnFrameRate() {
        func frame(at end: Double, times: [Double]) -> FrameLayout {
            var engine = Fixture.engine()
            var events: [CarouselEvent] = []
            engine.swipe(from: 900, to: 700, at: 0, duration: 0.08, steps: 8, events: &events)
            XCTAssertEqual(events.releases.map(\.to), [1])
            for t in times where t < end { _ = engine.update(now: t) }
            _ = engine.update(now: end)
            XCTAssertTrue(engine.isMoving)
            return engine.layout()
        }
        let end = 0.08 + 0.25
        let reference = frame(at: end, times: [])
        XCTAssertNotEqual(reference.cards.last?.x, Fixture.centreX - 200 + 8)
        for hz in [30.0, 60.0, 144.0] {
            XCTAssertEqual(frame(at: end, times: (1...100).map { 0.08 + Double($0) / hz }), reference, "\(hz) Hz")
        }
        XCTAssertEqual(frame(at: end, times: [0.09, 0.093, 0.15, 0.151, 0.3]), reference)
    }

    /// From rest one page (640 px) away, the default spring is within 0.5 px and 20 px/s after
    /// 0.702 s; at 60 Hz the engine settles on the first frame after that.
    func testSettlesWhenWithinHalfAPixelAndTwentyPixelsPerSecond() {
        var engine = Fixture.engine()
        _ = engine.page(by: 1, now: 0)
        guard let settled = engine.runUntilSettled(from: 0) else { return XCTFail("never settled") }
        XCTAssertGreaterThanOrEqual(settled.time, 0.70224)
        XCTAssertLessThanOrEqual(settled.time, 0.70224 + 1.0 / 60)
        XCTAssertEqual(settled.index, 1)
        XCTAssertEqual(engine.topCard?.x, Fixture.centreX)
        XCTAssertFalse(engine.isMoving)
        // Just before, it was still moving.
        var early = Fixture.engine()
        _ = early.page(by: 1, now: 0)
        XCTAssertEqual(early.update(now: 0.69), [])
        XCTAssertTrue(early.isMoving)
    }

    func testReleaseVelocitySeedsTheSpring() {
        // Same release point, one slow and one fast: the fast one has moved further 50 ms later.
        func position(after swipeDuration: Double) -> Double {
            var engine = Fixture.engine()
            var events: [CarouselEvent] = []
            let lift = engine.swipe(from: 900, to: 500, at: 0, duration: swipeDuration, steps: 20, events: &events)
            XCTAssertEqual(events.releases.map(\.to), [1])
            _ = engine.update(now: lift + 0.05)
            return engine.layout().cards.first { $0.index == 1 }!.x
        }
        XCTAssertLessThan(position(after: 0.08), position(after: 2.0) - 20)
    }
}
