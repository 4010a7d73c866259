import CarouselCore
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
    /// When the next ping is due: counted from the previous one's due time, so a late wakeup
    /// does not push every later ping back.
    private(set) var nextDeadline: Double?

    init(interval: Double? = Notifier.watchdogInterval(), notifier: Notifier, loop: EventLoop) {
        self.interval = interval
        self.notifier = notifier
        guard let interval else { return }
        let timer = loop.timer("watchdog", owner: self) { $0.ping(now: $1) }
        nextDeadline = loop.time.now() + interval
        timer.schedule(at: nextDeadline)
        self.timer = timer
    }

    /// Returns the longest gap between pings so far and starts measuring afresh.
    func takeLongestGap() -> Double {
        defer { longestGap = 0 }
        return longestGap
    }

    private func ping(now: Double) {
        guard let interval, let due = nextDeadline else { return }
        notifier.watchdog()
        if let lastPing { longestGap = max(longestGap, now - lastPing) }
        lastPing = now
        pings += 1
        // A loop that was stuck for longer than an interval starts counting afresh.
        nextDeadline = due + interval > now ? due + interval : now + interval
        timer?.schedule(at: nextDeadline)
    }
}
