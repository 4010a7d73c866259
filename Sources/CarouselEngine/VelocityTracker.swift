/// Estimates a finger's velocity the way Android's and Flutter's trackers do: a quadratic
/// least-squares fit over the last 100 ms (at most 20 samples), differentiated at the newest
/// sample. A finger that rested more than 40 ms before lifting has zero velocity.
struct VelocityTracker: Sendable, Equatable {
    static let horizon = 0.100
    static let maxSamples = 20
    /// A pause this long means the finger stopped: older samples are not part of this motion.
    static let restLimit = 0.040

    struct Sample: Sendable, Equatable {
        var time: Double
        var x: Double
        var y: Double
    }

    private(set) var samples: [Sample] = []

    mutating func add(time: Double, x: Double, y: Double) {
        samples.append(Sample(time: time, x: x, y: y))
        if samples.count > Self.maxSamples { samples.removeFirst(samples.count - Self.maxSamples) }
    }

    mutating func reset() { samples.removeAll() }

    /// Velocity in px/s at `time` (the lift time). Zero when the finger rested too long.
    func velocity(at time: Double) -> (x: Double, y: Double) {
        let window = recentSamples(at: time)
        return (Self.slope(window.map { ($0.time, $0.x) }), Self.slope(window.map { ($0.time, $0.y) }))
    }

    /// The samples that belong to the final motion, oldest first; empty if the finger rested.
    private func recentSamples(at time: Double) -> [Sample] {
        guard let newest = samples.last, time - newest.time <= Self.restLimit else { return [] }
        var window: [Sample] = [newest]
        for s in samples.dropLast().reversed() {
            guard newest.time - s.time <= Self.horizon,
                  let newer = window.first, newer.time - s.time <= Self.restLimit else { break }
            window.insert(s, at: 0)
        }
        return window
    }

    /// d/dt at the newest point of a least-squares quadratic; linear with two points.
    static func slope(_ points: [(t: Double, v: Double)]) -> Double {
        guard let last = points.last, let first = points.first, points.count >= 2 else { return 0 }
        let linear = last.t > first.t ? (last.v - first.v) / (last.t - first.t) : 0
        guard points.count >= 3 else { return linear }
        // Scale time to the window so the normal equations stay well conditioned.
        let scale = horizon
        var s = [Double](repeating: 0, count: 5)   // Σu^k, k = 0...4
        var r = [Double](repeating: 0, count: 3)   // Σu^k·v, k = 0...2
        for p in points {
            let u = (p.t - last.t) / scale, v = p.v - last.v
            var uk = 1.0
            for k in 0..<5 {
                s[k] += uk
                if k < 3 { r[k] += uk * v }
                uk *= u
            }
        }
        let m = [[s[0], s[1], s[2]], [s[1], s[2], s[3]], [s[2], s[3], s[4]]]
        guard let coefficients = solve3(m, r) else { return linear }
        let quadratic = coefficients[1] / scale
        // A burst of samples after a stall (a loaded box delivers them late, then together) bends
        // the parabola so far that its end turns back against the finger: a left swipe measured
        // as a fast right one. The finger's last step says which way it was going; a fit that
        // disagrees is not believed, and the window's average speed stands in for it.
        let lastStep = last.v - points[points.count - 2].v
        return lastStep * quadratic < 0 ? linear : quadratic
    }

    /// Solves a 3×3 system by Cramer's rule; nil when it is (nearly) singular,
    /// e.g. when several samples share a timestamp.
    private static func solve3(_ m: [[Double]], _ r: [Double]) -> [Double]? {
        func det(_ a: [[Double]]) -> Double {
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
                - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        }
        let d = det(m)
        let magnitude = m.flatMap { $0 }.map(abs).max() ?? 0
        guard d.isFinite, abs(d) > 1e-12 * magnitude * magnitude * magnitude else { return nil }
        return (0..<3).map { column in
            var a = m
            for row in 0..<3 { a[row][column] = r[row] }
            return det(a) / d
        }
    }
}
