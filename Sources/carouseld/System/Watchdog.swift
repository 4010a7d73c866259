/// Sends WATCHDOG=1 every half `WATCHDOG_USEC`, on a timer of its own on the event loop, due by
/// the real monotonic clock. It depends on no carousel: a finger resting on the panel (which
/// holds that carousel's clock) or a screen that never flips must not stop the pings, while a
/// stuck loop does, and systemd then restarts the daemon.
final class Watchdog {
    /// Seconds between pings; nil when systemd's watchdog is off.
    let interval: Double?
    /// The longest time between two pings, to tell a late one (soak test).
    private(set) var longestGap = 0.0
    private(set) var pings = 0
    private var lastPing: Double?
    private let notifier: Notifier
    private var timer: LoopTimer?

    init(interval: Double? = Notifier.watchdogInterval(), notifier: Notifier, loop: EventLoop) {
        self.interval = interval
        self.notifier = notifier
        guard let interval else { return }
        let timer = loop.timer("watchdog") { [unowned self] now in ping(now: now) }
        timer.schedule(at: loop.time.now() + interval)
        self.timer = timer
    }

    /// The next ping's time; nil when the watchdog is off.
    var nextDeadline: Double? { timer?.deadline }

    /// Returns the longest gap between pings so far and starts measuring afresh.
    func takeLongestGap() -> Double {
        defer { longestGap = 0 }
        return longestGap
    }

    private func ping(now: Double) {
        guard let interval else { return }
        notifier.watchdog()
        if let lastPing { longestGap = max(longestGap, now - lastPing) }
        lastPing = now
        pings += 1
        timer?.schedule(at: now + interval)
    }
}
