import CarouselConfig
import CarouselCore
import CarouselEngine

/// Pages one carousel by the wall clock (`sync = "wallclock"`), so every box with the same
/// playlist shows the same picture at the same moment (`WallClockSchedule`):
/// - a wall-clock timer of the loop fires when the next page change must start, `lead` seconds
///   before the boundary, so the spring comes to rest on it; a stepped clock (NTP, `date -s`)
///   fires it at once and the screen re-aligns: animated one step away, cut farther;
/// - the engine's own auto-advance is held (it counts monotonic time, not the wall clock);
/// - a touch takes the screen out of sync; after `sync_resume` seconds without one, it
///   animates back to the clock's picture. A reload re-aligns.
/// - until the clock is synchronised (`ClockTrust`) it waits: the engine pages by itself, and
///   the moment the clock is believed the screen re-aligns as after a step.
final class WallClockSync {
    private let carousel: Carousel
    private var timer: WallClockTimer?
    /// Back to the clock after `sync_resume` seconds without a touch (the loop's real clock).
    private var resumeTimer: LoopTimer?
    private var schedule: WallClockSchedule?
    private var resumeAfter: Double
    /// Seconds a page change takes to rest: it starts that much before the boundary.
    private var lead = 0.0
    /// Monotonic time of the last touch while out of sync; nil while synced.
    private(set) var touchedAt: Double?
    /// The wall clock, seconds since 1970 (a test's own clock in tests).
    private let wallClock: () -> Double
    /// The loop's monotonic clock, the engine's time line.
    private let time: TimeSource
    private let clock: ClockTrust

    init(carousel: Carousel, shell: ShellSettings, clock: ClockTrust, loop: EventLoop,
         wallClock: @escaping () -> Double = WallClock.now) {
        self.carousel = carousel
        self.clock = clock
        self.wallClock = wallClock
        time = loop.time
        resumeAfter = shell.sync.resume
        timer = loop.wallClockTimer("wall clock", owner: self) { owner, cause in
            switch cause {
            case .clockSet: owner.clockStepped()
            case .due: owner.align(animateFarther: false)
            }
        }
        resumeTimer = loop.timer("sync resume", owner: self) { $0.resume(now: $1) }
        configure(shell: shell)
    }

    /// A new playlist or settings (start, reload): a new schedule, and the screen re-aligned.
    func configure(shell: ShellSettings) {
        resumeAfter = shell.sync.resume
        resumeTimer?.schedule(at: touchedAt.map { $0 + resumeAfter })
        let engine = carousel.engine
        schedule = WallClockSchedule(epoch: shell.sync.epoch, interval: carousel.config.interval,
                                     itemDurations: carousel.items.map(\.duration), itemCount: carousel.items.count)
        lead = engine.pageSettleDuration
        if clock.isTrusted { carousel.modifyEngine { $0.setPaused(true, now: time.now()) } }
        if schedule == nil {
            Log.warning("\(carousel.prefix)sync = \"wallclock\" needs an interval or #EXTINF durations; not syncing")
        }
        align(animateFarther: false)
    }

    /// True while the clock pages this carousel (its auto-advance is held): once the clock is
    /// believed. Without durations (no schedule) it still holds the carousel, as it always has.
    var followsClock: Bool { clock.isTrusted }

    /// The clock became synchronised: hold the engine's own paging and take the clock's picture.
    func clockTrusted() {
        Log.notice("\(carousel.prefix)the clock is synchronised: paging by it from \(RFC3339.string(wallClock()))")
        carousel.modifyEngine { $0.setPaused(true, now: time.now()) }
        align(animateFarther: false)
    }

    /// Any touch on this carousel: out of sync until `sync_resume` seconds pass without one.
    func touched(now: Double) {
        if touchedAt == nil { Log.info("\(carousel.prefix)touched: out of wall-clock sync for \(formatted("%.0f", resumeAfter)) s") }
        touchedAt = now
        resumeTimer?.schedule(at: now + resumeAfter)
    }

    /// "synced", "touched (resync in 12 s)" or "waiting for the clock to be synchronised".
    func state(now: Double) -> String {
        if !clock.isTrusted { return "waiting for the clock to be synchronised" }
        if let touchedAt { return "touched (resync in \(formatted("%.0f", max(0, touchedAt + resumeAfter - now))) s)" }
        if schedule == nil { return "not syncing (no durations)" }
        return "synced"
    }

    // MARK: -

    /// The wall clock was set: back on its picture at once (a cut if more than one away).
    func clockStepped() {
        // Not believed yet: the step may be NTP's first setting; ask at once rather than at the next poll.
        guard clock.isTrusted else { return clock.check() }
        Log.notice("\(carousel.prefix)the wall clock was set: re-aligning to \(RFC3339.string(wallClock()))")
        align(animateFarther: false)
    }

    private func resume(now: Double) {
        // A finger still resting on the screen keeps it out of sync.
        if carousel.engine.hasFingersDown { touched(now: now); return }
        touchedAt = nil
        Log.info("\(carousel.prefix)no touch for \(formatted("%.0f", resumeAfter)) s: back to the wall clock")
        align(animateFarther: true)
    }

    /// Arms the next change and puts the carousel on the clock's picture (unless touched).
    ///
    /// The timer is armed before the engine is moved, and the clock is read again once it is
    /// armed: the kernel cancels only a timer armed when the clock is set, so a step between
    /// the first read and the arm would go unnoticed, and the screen would keep the old clock's
    /// picture until the old deadline. (Seen in the VM: a `date -s` during a slow frame.)
    private func align(animateFarther: Bool) {
        guard let schedule, clock.isTrusted else { return }
        let (read, monotonic) = (wallClock(), MonotonicClock.now())
        // A millisecond on: the timer fires at the change, and rounding must not land before it.
        let wall = read + 0.001
        timer?.schedule(at: schedule.nextChange(after: wall, lead: lead))
        if abs((wallClock() - read) - (MonotonicClock.now() - monotonic)) > Self.stepTolerance {
            clockStepped()
            return
        }
        if touchedAt == nil {
            let target = schedule.target(at: wall, lead: lead)
            carousel.updateEngine(cause: .sync) { $0.follow(item: target, now: time.now(), animateFarther: animateFarther) }
        }
    }

    /// More than this between the wall clock's and the monotonic clock's progress is a step,
    /// not NTP's slewing (at most 0.5 ms a second).
    static let stepTolerance = 0.5
}
