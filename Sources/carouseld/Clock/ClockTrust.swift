import CarouselConfig
import CarouselCore
import CLinux
import Glibc

/// Whether the wall clock can be believed yet. A box without an RTC (a Raspberry Pi) boots
/// with the time of its last shutdown, or 1970, until NTP sets it: a `[[screen]]` schedule read
/// from that clock could turn the screen off at noon, and dayparting could show the night's
/// playlist. Until the clock is synchronised the schedule keeps the screen on, dayparting shows
/// the main playlist and wall-clock sync waits; the moment it is, every one of them re-aligns
/// (`trusted`).
///
/// Once synchronised the clock stays believed for the daemon's life: the kernel marks it
/// unsynchronised again after hours without an NTP answer (or after `date -s`), but by then it
/// is still nearly right, and a screen that suddenly stayed on all night would be worse.
/// `trust_clock = "always"` believes it from the start (a box with an RTC and no network).
final class ClockTrust {
    private(set) var isTrusted: Bool
    /// Asks the kernel (or timesyncd) whether the clock is synchronised.
    private let probe: () -> Bool
    /// While not trusted: asks again every `pollInterval` s. NTP's slewing sets no clock, so no
    /// timer is cancelled by it; one cheap system call a second is the price, only until then.
    private var poll: LoopTimer?
    private let time: TimeSource
    /// Called once, when the clock becomes trusted (not at start when it already is).
    private let trusted: () -> Void

    static let pollInterval = 1.0

    init(mode: ClockTrustMode, loop: EventLoop, probe: @escaping () -> Bool = ClockStatus.isSynchronised,
         trusted: @escaping () -> Void = {}) {
        self.probe = probe; self.trusted = trusted
        time = loop.time
        isTrusted = mode == .always || probe()
        if !isTrusted {
            Log.notice("the clock is not synchronised yet: the screen schedule, dayparting and wall-clock sync wait for it")
            poll = loop.timer("clock synchronised?", owner: self) { owner, _ in owner.check() }
            poll?.schedule(at: time.now() + Self.pollInterval)
        }
    }

    /// A reload: `trust_clock = "always"` now trusts a clock that was waited for.
    func configure(mode: ClockTrustMode) {
        if mode == .always { check(force: true) }
    }

    /// Asks again now (the clock was set, or the poll is due).
    func check(force: Bool = false) {
        guard !isTrusted else { return }
        guard force || probe() else {
            poll?.schedule(at: time.now() + Self.pollInterval)
            return
        }
        isTrusted = true
        poll = nil
        Log.notice(force ? "trust_clock = \"always\": the clock is believed from now" : "the clock is synchronised: the schedules apply from now")
        trusted()
    }

    /// The wall clock while it is believed, else nil (`LoadedConfig.daypart(at:)`).
    var trustedNow: Double? { isTrusted ? WallClock.now() : nil }

    /// For the status: why the schedules do not apply yet, or nil.
    var waitingReason: String? { isTrusted ? nil : "clock not synchronised" }
}

/// Whether the kernel's clock is synchronised (NTP): `adjtimex` with no change asked for, whose
/// status lacks STA_UNSYNC once systemd-timesyncd or chrony have set it. The hardened unit
/// (ProtectClock=yes) refuses adjtimex; then systemd-timesyncd's flag file answers.
enum ClockStatus {
    static let timesyncFlag = "/run/systemd/timesync/synchronized"

    static func isSynchronised() -> Bool {
        let state = carouseld_clock_synchronised()
        return state >= 0 ? state == 1 : access(timesyncFlag, F_OK) == 0
    }
}
