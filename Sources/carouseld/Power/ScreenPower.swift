import CarouselConfig
import CarouselCore
/// Whether the screen should be lit: the `[[screen]]` schedule, a `ctl screen on|off` until
/// the schedule's next change, and a touch that wakes a sleeping screen for `wake_minutes`.
/// Pure (times are passed in, seconds since 1970), so every rule is tested.
struct ScreenPower: Sendable {
    enum Override: String, Sendable, Equatable { case on, off, auto }

    /// When the screen is on; no window means always on.
    var schedule: [WeeklyWindow]
    var wakeMinutes: Double
    /// `ctl screen on|off`: the state, and the schedule change that ends it (nil: never changes).
    private(set) var override: (on: Bool, until: Double?)?
    private(set) var wokenUntil: Double?
    /// False until the wall clock is synchronised (`ClockTrust`): the schedule is not read
    /// from a clock that may be hours or years off, and the screen stays on.
    var clockTrusted = true

    init(schedule: [WeeklyWindow] = [], wakeMinutes: Double = 5) {
        self.schedule = schedule; self.wakeMinutes = wakeMinutes
    }

    func scheduledOn(at time: Double) -> Bool { scheduledOn(LocalTime(time)) }

    private func scheduledOn(_ local: LocalTime) -> Bool {
        schedule.isEmpty || schedule.contains { $0.contains(local) }
    }

    func isOn(at time: Double) -> Bool { state(at: time).on }

    /// On or off, and why: "always", "scheduled", "ctl", "touch", "clock not synchronised".
    func state(at time: Double) -> (on: Bool, reason: String) {
        if let override, override.until.map({ time < $0 }) ?? true { return (override.on, "ctl") }
        if let wokenUntil, time < wokenUntil { return (true, "touch") }
        if schedule.isEmpty { return (true, "always") }
        return clockTrusted ? (scheduledOn(at: time), "scheduled") : (true, "clock not synchronised")
    }

    /// `ctl screen on|off|auto` at `time`: on or off until the schedule next changes; auto
    /// follows the schedule again.
    mutating func set(_ mode: Override, at time: Double) {
        wokenUntil = nil
        switch mode {
        case .auto: override = nil
        case .on, .off: override = (mode == .on, LocalTime.nextChange(after: time) { scheduledOn($0) })
        }
    }

    /// A touch while dark wakes the screen for `wake_minutes` (the touch itself does nothing
    /// else); a touch while lit keeps a woken screen on longer. True when it woke the screen.
    mutating func touched(at time: Double) -> Bool {
        let wasOn = isOn(at: time)
        if !wasOn || wokenUntil != nil {
            if override?.on == false { override = nil }
            wokenUntil = time + wakeMinutes * 60
        }
        return !wasOn
    }

    /// The next time the answer may change: the schedule's next change, the end of a wake or
    /// of an override. Nil when nothing will change.
    func nextChange(after time: Double) -> Double? {
        var candidates: [Double] = []
        if !schedule.isEmpty, clockTrusted, let change = LocalTime.nextChange(after: time, { scheduledOn($0) }) {
            candidates.append(change)
        }
        if let until = override?.until, until > time { candidates.append(until) }
        if let wokenUntil, wokenUntil > time { candidates.append(wokenUntil) }
        return candidates.min()
    }
}
