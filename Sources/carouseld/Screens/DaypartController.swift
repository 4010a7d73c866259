import CarouselConfig
import CarouselCore
/// Switches the main playlist by time of day (`[[playlist]]` tables): a realtime timer fires
/// at the next window boundary (or when the clock is stepped), and the carousels that show the
/// main playlist page to the new one (`ScreenGroup.switchPlaylist`).
final class DaypartController {
    private let timer: RealtimeTimer
    private var timerWatch: Watch?
    private var loaded: LoadedConfig
    /// Until the clock is synchronised, the main playlist shows (`ClockTrust`).
    private let clock: ClockTrust
    /// The `[[playlist]]` file in force; nil for playlist.m3u (or the media directory).
    private(set) var file: String?
    /// Called with the playlist that has just come into force.
    var onSwitch: ((_ file: String?, _ items: [PlaylistItem]) -> Void)?

    init(loaded: LoadedConfig, clock: ClockTrust, loop: EventLoop) throws {
        self.loaded = loaded
        self.clock = clock
        timer = try RealtimeTimer()
        file = loaded.daypart(at: clock.trustedNow).file
        timerWatch = try loop.watch(timer.fd, name: "dayparts") { [unowned self] in
            if timer.acknowledge() != .none { check() }
        }
        arm()
    }

    /// A reload: the new tables; the caller shows `current` (no animation needed, the reload swaps anyway).
    func configure(_ loaded: LoadedConfig) {
        self.loaded = loaded
        file = loaded.daypart(at: clock.trustedNow).file
        arm()
    }

    /// What shows now.
    var current: (file: String?, items: [PlaylistItem]) { loaded.daypart(at: clock.trustedNow) }

    /// The clock became synchronised: the daypart of the real time, paged to.
    func clockTrusted() { check() }

    private func check() {
        let now = current
        if now.file != file {
            Log.notice("daypart: \(now.file ?? "the main playlist") from now (\(now.items.count) pictures)")
            file = now.file
            onSwitch?(now.file, now.items)
        }
        arm()
    }

    private func arm() {
        let now = RealtimeTimer.now()
        guard !loaded.shell.schedule.dayparts.isEmpty, clock.isTrusted else { return }
        let change = LocalTime.nextChange(after: now) { [loaded] in loaded.daypartFile(at: $0) } ?? now + 86_400
        do { try timer.arm(at: min(change, now + 86_400)) } catch { Log.error("arming the daypart timer: \(error)") }
    }
}
