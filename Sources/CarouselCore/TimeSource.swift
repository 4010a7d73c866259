/// Where the loop and the parts it runs read monotonic time: the real CLOCK_MONOTONIC in the
/// daemon, a clock the test moves by hand in tests (so no test sleeps to let time pass).
package protocol TimeSource: AnyObject {
    func now() -> Double
    /// The same clock to within a kernel tick (a few milliseconds), read without asking the
    /// hardware: enough to measure stalls of a tenth of a second.
    func coarseNow() -> Double
    /// How far `coarseNow()` may be behind `now()`: a time later than `coarseNow() + coarseLag`
    /// has not come yet, and that much can be known without a fine read.
    var coarseLag: Double { get }
}

extension TimeSource {
    package func coarseNow() -> Double { now() }
    package var coarseLag: Double { 0 }
}

/// CLOCK_MONOTONIC: the clock of timerfd, DRM flip times and libinput events.
package final class SystemTime: TimeSource, Sendable {
    package static let shared = SystemTime()
    package func now() -> Double { MonotonicClock.now() }
    package func coarseNow() -> Double { MonotonicClock.coarseNow() }
    package var coarseLag: Double { MonotonicClock.coarseLag }
}

/// A clock that stands still until the test moves it.
package final class ManualTime: TimeSource {
    private var current: Double
    package init(_ start: Double = 1000) { current = start }
    package func now() -> Double { current }
    package func advance(by seconds: Double) { current += seconds }
    package func set(_ time: Double) { current = time }
}
