import CarouselCore
import Glibc

/// Monotonic time for the benchmark.
enum Stopwatch {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Seconds `body` took.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }
}

/// Samples in seconds, with the percentiles the benchmark prints.
struct Timings {
    private(set) var samples: [Double] = []
    mutating func add(_ seconds: Double) { samples.append(seconds) }
    var count: Int { samples.count }

    /// Nearest-rank percentile (p in 0...100).
    func percentile(_ p: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(0, rank), sorted.count - 1)]
    }
    var p50: Double { percentile(50) }
    var p99: Double { percentile(99) }
}
