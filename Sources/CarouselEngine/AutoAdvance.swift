/// The slideshow countdown: after `interval` seconds of rest the strip pages forward by one.
///
/// The countdown runs only while the strip rests untouched. A touch cancels it, and the full
/// interval starts again only when the strip next comes to rest.
struct AutoAdvance: Sendable, Equatable {
    /// Seconds of rest before advancing; 0 (or anything not positive) disables auto-advance.
    var interval: Double
    /// Per-item overrides (playlist durations); nil, missing or non-positive entries use `interval`.
    var itemDurations: [Double?]
    /// When the strip last came to rest untouched; nil while the countdown is cancelled.
    private(set) var restSince: Double?
    /// Held by the shell (control socket `pause`, paging by the wall clock, a screen asleep).
    var isPaused = false

    init(interval: Double, itemDurations: [Double?], restSince: Double?, isPaused: Bool = false) {
        self.interval = interval; self.itemDurations = itemDurations; self.restSince = restSince
        self.isPaused = isPaused
    }

    var isEnabled: Bool { interval > 0 && interval.isFinite }

    mutating func rest(at time: Double) { restSince = time }
    mutating func cancel() { restSince = nil }

    /// Seconds to show `item` before advancing, or nil when auto-advance is off.
    func interval(forItem item: Int) -> Double? {
        guard isEnabled else { return nil }
        if itemDurations.indices.contains(item), let d = itemDurations[item], d > 0, d.isFinite { return d }
        return interval
    }

    /// Absolute time of the next advance while resting on `item`; nil when cancelled or off.
    func deadline(showing item: Int) -> Double? {
        guard let since = restSince, let wait = interval(forItem: item) else { return nil }
        return since + wait
    }
}
