#if canImport(Glibc)
import Glibc  // exp, sin, cos only; the engine uses no clock or I/O
#elseif canImport(Darwin)
import Darwin
#endif

/// A damped harmonic oscillator with unit mass, parameterised like SwiftUI's
/// `spring(response:dampingFraction:)`: stiffness = (2π/response)², damping = 4π·ζ/response.
///
/// It is solved in closed form so the state at any time is exact, whatever the frame rate.
struct Spring: Sendable, Equatable {
    var response: Double
    var dampingFraction: Double

    /// Undamped angular frequency ω₀ = 2π / response.
    var angularFrequency: Double { 2 * Double.pi / response }
    var stiffness: Double { angularFrequency * angularFrequency }
    var damping: Double { 4 * Double.pi * dampingFraction / response }

    /// Displacement and velocity `t` seconds after starting at displacement `x0` with velocity `v0`
    /// (both relative to the rest point).
    func state(x0: Double, v0: Double, t: Double) -> (x: Double, v: Double) {
        let w0 = angularFrequency, z = dampingFraction
        let t = max(0, t)
        if abs(z - 1) < 1e-9 {
            // Critically damped: x = (x0 + (v0 + ω₀x0) t) e^{-ω₀t}.
            let b = v0 + w0 * x0
            let e = exp(-w0 * t)
            return ((x0 + b * t) * e, (b - w0 * (x0 + b * t)) * e)
        } else if z < 1 {
            // Under-damped: decaying cosine and sine at ωd = ω₀√(1-ζ²).
            let wd = w0 * (1 - z * z).squareRoot()
            let a = z * w0
            let b = (v0 + a * x0) / wd
            let e = exp(-a * t), c = cos(wd * t), s = sin(wd * t)
            let x = e * (x0 * c + b * s)
            let v = e * ((b * wd - a * x0) * c - (x0 * wd + a * b) * s)
            return (x, v)
        } else {
            // Over-damped: two real decaying exponentials.
            let root = (z * z - 1).squareRoot()
            let r1 = -w0 * (z - root), r2 = -w0 * (z + root)
            let c2 = (v0 - r1 * x0) / (r2 - r1)
            let c1 = x0 - c2
            let e1 = exp(r1 * t), e2 = exp(r2 * t)
            return (c1 * e1 + c2 * e2, c1 * r1 * e1 + c2 * r2 * e2)
        }
    }
}

/// One run of the spring towards a page: started at `startTime` from a position and velocity
/// in strip units (steps) and steps per second.
struct SpringAnimation: Sendable, Equatable {
    var spring: Spring
    var startTime: Double
    var startPosition: Double
    var startVelocity: Double
    /// Strip position of the target page (exact, so settling lands on it bit for bit).
    var target: Double
    /// Global page number of the target on the strip.
    var targetPage: Int

    func state(at time: Double) -> (position: Double, velocity: Double) {
        let s = spring.state(x0: startPosition - target, v0: startVelocity, t: time - startTime)
        return (target + s.x, s.v)
    }

    /// Settled when within 0.5 px and 20 px/s of the target (Flutter uses 1 px and 20 px/s).
    func isSettled(at time: Double, step: Double) -> Bool {
        let s = state(at: time)
        return abs(s.position - target) * step <= 0.5 && abs(s.velocity) * step <= 20
    }
}
