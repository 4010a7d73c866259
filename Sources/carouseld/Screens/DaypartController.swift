import CarouselConfig
import CarouselCore
/// Switches the main playlist by time of day (`[[playlist]]` tables): a wall-clock timer of the
/// loop fires at the next window boundary (or when the clock is set), and the carousels that show the
/// main playlist page to the new one (`ScreenGroup.switchPlaylist`).
final class DaypartController {
    private var timer: WallClockTimer?
    private var loaded: LoadedConfig
    /// Until the clock is synchronised, the main playlist shows (`ClockTrust`).
    private let clock: ClockTrust
    /// The `[[playlist]]` file in force; nil for playlist.m3u (or the media directory).
    private(set) var file: String?
    /// Called with the playlist that has just come into force.
    private let switched: (_ file: String?, _ items: [PlaylistItem]) -> Void

    init(loaded: LoadedConfig, clock: ClockTrust, loop: EventLoop,
         switched: @escaping (_ file: String?, _ items: [PlaylistItem]) -> Void = { _, _ in }) {
        self.switched = switched
        self.loaded = loaded
        self.clock = clock
        file = loaded.daypart(at: clock.trustedNow).file
        timer = loop.wallClockTimer("dayparts", owner: self) { owner, _ in owner.check() }
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
            switched(now.file, now.items)
        }
        arm()
    }

    private func arm() {
        let now = WallClock.now()
        guard !loaded.shell.schedule.dayparts.isEmpty, clock.isTrusted else {
            timer?.schedule(at: nil)
            return
        }
        let change = LocalTime.nextChange(after: now) { [loaded] in loaded.daypartFile(at: $0) } ?? now + 86_400
        timer?.schedule(at: min(change, now + 86_400))
    }
}
