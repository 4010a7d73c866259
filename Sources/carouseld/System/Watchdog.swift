/// Sends WATCHDOG=1 every half `WATCHDOG_USEC` from the event loop: the loop calls `fire(now:)`
/// when `nextDeadline` passes, so a stuck loop stops the pings and systemd restarts the daemon.
struct Watchdog {
    /// Seconds between pings; nil when systemd's watchdog is off.
    let interval: Double?
    private(set) var nextDeadline: Double?
    /// The longest time between two pings, to tell a late one (soak test).
    private(set) var longestGap = 0.0
    private(set) var pings = 0
    private var lastPing: Double?

    /// Returns the longest gap between pings so far and starts measuring afresh.
    mutating func takeLongestGap() -> Double {
        defer { longestGap = 0 }
        return longestGap
    }
    private let notifier: Notifier

    init(interval: Double? = Notifier.watchdogInterval(), notifier: Notifier, now: Double) {
        self.interval = interval
        self.notifier = notifier
        nextDeadline = interval.map { now + $0 }
    }

    /// Pings if the deadline has passed and schedules the next one. Returns true if it pinged.
    @discardableResult
    mutating func fire(now: Double) -> Bool {
        guard let interval, let deadline = nextDeadline, now >= deadline else { return false }
        notifier.watchdog()
        if let lastPing { longestGap = max(longestGap, now - lastPing) }
        lastPing = now
        pings += 1
        nextDeadline = now + interval
        return true
    }
}
