/// Where the loop and the parts it runs read monotonic time: the real CLOCK_MONOTONIC in the
/// daemon, a clock the test moves by hand in tests (so no test sleeps to let time pass).
protocol TimeSource: AnyObject {
    func now() -> Double
}

/// CLOCK_MONOTONIC: the clock of timerfd, DRM flip times and libinput events.
final class SystemTime: TimeSource, Sendable {
    static let shared = SystemTime()
    func now() -> Double { MonotonicClock.now() }
}

/// A clock that stands still until the test moves it.
final class ManualTime: TimeSource {
    private var current: Double
    init(_ start: Double = 1000) { current = start }
    func now() -> Double { current }
    func advance(by seconds: Double) { current += seconds }
    func set(_ time: Double) { current = time }
}
