import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine

/// The daemon's carousels: one per independent screen, or one for all mirrored or spanned
/// screens (`ScreenPlan`), and the wall-clock sync of each (`sync = "wallclock"`, fixed until
/// restart). The first leads: its first frame is the start's end (READY=1).
final class Carousels {
    let plan: ScreenPlan
    let all: [Carousel]
    /// One per carousel with `sync = "wallclock"`, else empty.
    let syncs: [WallClockSync]
    /// The loop's monotonic clock: the time of whatever input and operations do to the engines.
    let time: TimeSource
    /// Whether the wall clock is believed yet: dayparts, the screen schedule and sync wait for it.
    let clock: ClockTrust
    /// Proof of play: what each carousel showed, from when to when, to the journal.
    let plays: PlayLog

    /// True when the card cache is under /run (its directory could not be written); nil
    /// without a card cache (`DaemonCardCache`). Decided at start.
    var cacheFallback: Bool?

    init(plan: ScreenPlan, carousels: [Carousel], shell: ShellSettings, clock: ClockTrust, loop: EventLoop) {
        self.plan = plan; all = carousels; self.clock = clock; time = loop.time
        plays = PlayLog(plan: plan, carousels: carousels, time: time)
        syncs = shell.sync.mode == .wallclock
            ? carousels.map { WallClockSync(carousel: $0, shell: shell, clock: clock, loop: loop) } : []
    }

    /// The first carousel: its first frame ends the start (READY=1), and `ctl` answers for it.
    var lead: Carousel { all[0] }
    var isMoving: Bool { all.contains { $0.engine.isMoving } }
    var framesPresented: Int { all.reduce(0) { $0 + $1.framesPresented } }

    /// The sync of carousel `index`; nil when not synced.
    func sync(of index: Int) -> WallClockSync? { syncs.indices.contains(index) ? syncs[index] : nil }

    /// Input or a control request moved carousel `index`: a synced one leaves the clock for a while.
    func touched(_ index: Int, now: Double) { sync(of: index)?.touched(now: now) }

    /// Where each screen's touches go, in the plan's screen order, and how devices find their screen.
    func touchTargets() -> ([TouchTarget], TouchRouting) {
        var targets = [TouchTarget?](repeating: nil, count: plan.screens.count)
        for (index, carousel) in all.enumerated() {
            for (screen, target) in zip(carousel.plan.screens, carousel.touchTargets(carousel: index)) {
                targets[screen] = target
            }
        }
        let routing = TouchRouting(screens: plan.screens.map { (connector: $0.connector ?? "", touch: $0.touch) })
        return (targets.compactMap { $0 }, routing)
    }

    /// Every carousel's status-line part, "HDMI-A-1: showing 3/12 beach.jpg"; the first sync's state.
    func showing(now: Double) -> String {
        let sync = syncs.first.map { "; " + $0.state(now: now) } ?? ""
        return all.map { $0.prefix + $0.showing }.joined(separator: "; ") + sync
    }
}

extension Carousels {
    /// One carousel per entry of the backend's plan (`ScreenPlan.CarouselPlan`), each on its
    /// screens' outputs, showing its playlist of the loaded config; the card cache is opened here.
    convenience init(_ backend: Backend, loaded: LoadedConfig, options: DaemonOptions,
                     clock: ClockTrust, loop: EventLoop, events: AppEvents) throws {
        let plan = backend.plan
        // The engine clock (and the first auto-advance interval) starts just before the first frame.
        let now = loop.time.now()
        let opened = DaemonCardCache.open(commandLine: options.cacheDirectory, shell: options.overriding(loaded.shell))
        let cache = opened.cache
        let all = try plan.carousels.map { carousel in
            try Carousel(plan: carousel, layout: plan.layout, outputs: carousel.screens.map { backend.outputs[$0] },
                         rotations: carousel.screens.map(backend.rotation(ofScreen:)),
                         content: .init(config: carousel.config, shell: loaded.shell,
                                        items: loaded.items(of: carousel, at: clock.trustedNow),
                                        configDigest: loaded.configDigest),
                         loop: loop, events: events, now: now, cache: cache,
                         keptFrames: cache.map { $0.directory + "/frames" })
        }
        self.init(plan: plan, carousels: all, shell: loaded.shell, clock: clock, loop: loop)
        cacheFallback = opened.fallback
    }
}

extension LoadedConfig {
    /// The playlist a carousel shows: its screen's own (independent), or the main one (the
    /// daypart's at wall-clock time `at`; nil while the clock is not believed: the main playlist).
    func items(of carousel: ScreenPlan.CarouselPlan, at wallClock: Double?) -> [PlaylistItem] {
        carousel.playlistOutput.map { playlist(forOutput: $0) } ?? daypart(at: wallClock).items
    }
}
