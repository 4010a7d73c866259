import CarouselBackends
import CarouselCore

/// Proof of play in the running daemon: one `ShowingTracker` per carousel, told by the runner
/// and the operations when a strip rests, leaves its rest (and why), takes a new playlist, and
/// when the screens go dark or the daemon stops; each finished showing becomes one journal
/// record per lit screen of the carousel.
///
/// - A mirror or a span records every lit screen of the carousel: each is a place where the
///   picture was seen. A screen is named by its connector (the plan's, else the output's own),
///   or by its device (fb0, wayland-0) where there is no connector.
/// - The engines' times are monotonic; a moment's wall-clock time is the wall clock now less
///   how long ago the moment was.
/// - While the screens are dark nothing is shown: a rest then begins no showing, and the
///   showing on screen when they went dark ends then (`off`).
final class PlayLog {
    private let carousels: [Carousel]
    /// Each carousel's screens' connector names from the plan (nil: not named there).
    private let connectors: [[String?]]
    private var trackers: [ShowingTracker]
    private let time: TimeSource
    /// Seconds since 1970 now (a test's clock in tests: its loop clock is not the real one).
    var wallClock: () -> Double
    /// Where finished showings go: the journal; tests keep them.
    var send: (PlayRecord) -> Void = PlayJournal.send
    private(set) var screensOn = true

    init(plan: ScreenPlan, carousels: [Carousel], time: TimeSource, wallClock: @escaping () -> Double = WallClock.now) {
        self.carousels = carousels; self.time = time; self.wallClock = wallClock
        connectors = plan.carousels.map { $0.screens.map { plan.screens.indices.contains($0) ? plan.screens[$0].connector : nil } }
        trackers = Array(repeating: ShowingTracker(), count: carousels.count)
    }

    /// `carousel`'s strip rests on its item `index` since `at` (engine clock), e.g. a settle, the
    /// first frame. `cause` names what took the previous picture if no move was heard of.
    func rested(_ carousel: Carousel, index: Int, at engineTime: Double, cause: MoveCause = .auto) {
        guard screensOn, let g = carousels.firstIndex(where: { $0 === carousel }) else { return }
        let instant = self.instant(engineTime)
        let finished = carousel.items.indices.contains(index)
            ? trackers[g].rested(on: carousel.items[index].path, at: instant, cause: cause)
            : trackers[g].ended(at: instant, cause: cause)   // an empty playlist shows nothing
        record(finished, of: g)
    }

    /// `carousel` rests on what it selects since `at` (a swap, the screens waking).
    func restsNow(_ carousel: Carousel, at engineTime: Double, cause: MoveCause) {
        guard !carousel.engine.isMoving else { return }   // the settle to come begins the showing
        rested(carousel, index: carousel.engine.selectedIndex, at: engineTime, cause: cause)
    }

    func left(_ carousel: Carousel, because cause: MoveCause, at engineTime: Double) {
        guard screensOn, let g = carousels.firstIndex(where: { $0 === carousel }) else { return }
        trackers[g].left(because: cause, at: instant(engineTime))
    }

    /// The screens went dark (every showing ends) or lit up again (what rests begins anew).
    func screens(on: Bool) {
        guard on != screensOn else { return }
        if on {
            screensOn = true
            for carousel in carousels { restsNow(carousel, at: time.now(), cause: .off) }
        } else {
            endAll(cause: .off)
            screensOn = false
        }
    }

    /// The daemon stops: every showing ends now.
    func stop() { endAll(cause: .stop) }

    private func endAll(cause: MoveCause) {
        let now = instant(time.now())
        for g in trackers.indices { record(trackers[g].ended(at: now, cause: cause), of: g) }
    }

    private func instant(_ engineTime: Double) -> PlayInstant {
        PlayInstant(monotonic: engineTime, wall: wallClock() - (time.now() - engineTime))
    }

    private func record(_ finished: FinishedShowing?, of g: Int) {
        guard let finished else { return }
        for output in litScreens(of: g) { send(PlayRecord(finished, output: output)) }
    }

    /// The names of carousel `g`'s screens that are lit (connected, with a mode).
    private func litScreens(of g: Int) -> [String] {
        zip(carousels[g].outputs, connectors[g] + Array(repeating: nil, count: carousels[g].outputs.count))
            .filter { output, _ in output.size != nil }
            .map { output, connector in connector ?? output.connectorName ?? Self.deviceName(output.devicePath) }
    }

    /// "fb0" of /dev/fb0, "wayland-0" of a Wayland socket's name.
    static func deviceName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
