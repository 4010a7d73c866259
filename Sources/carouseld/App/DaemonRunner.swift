import ArgumentParser
import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels
import Glibc

/// Puts the daemon together and runs it: the config, the backend (screens and input), one
/// carousel per independent screen, the input router, the operations, the reload, the status
/// publisher and the watchdog, all on one event loop. It assembles and handles the process's
/// own life (signals, the first frame, the stop); each job is done by the part named for it.
final class DaemonRunner: ScreenGroupDelegate {
    let loop: EventLoop
    let live: LiveConfig
    let backend: Backend
    let carousels: Carousels
    let publisher: StatusPublisher
    let operations: Operations
    let router: InputRouter
    let reload: ReloadCoordinator
    private let watchdog: Watchdog
    private let signals: SignalSource
    private var signalWatch: Watch?
    private var startup: StartupTimeline

    /// `openBackend`: how the screens and input are had (tests give a fake one).
    init(_ options: DaemonOptions, loop: EventLoop? = nil,
         openBackend: (ShellSettings, CarouselConfig, EventLoop) throws(DisplayError) -> Backend = Backends.open) throws {
        var startup = StartupTimeline()
        let notifier = Notifier()
        // Blocked before any thread starts (the decode worker), so every thread inherits the mask.
        signals = try SignalSource(signals: [SIGTERM, SIGINT, SIGHUP, SIGUSR1])
        let loop = try loop ?? EventLoop()
        self.loop = loop
        live = try Self.loadConfig(options.configDirectory, notifier: notifier, loop: loop)
        startup.reached("config loaded")
        let loaded = live.current
        let shell = options.overriding(loaded.shell)
        do {
            backend = try openBackend(shell, loaded.config, loop)
        } catch {
            Self.explain(error, tables: shell.outputTables(loaded.config), file: loaded.directory + "/" + ConfigLoader.configFileName)
            notifier.status("display: \(error)")
            throw ExitCode.failure
        }
        let plan = backend.plan
        if plan.screens.count > 1 {
            Log.info("\(plan.screens.count) screens, layout \(plan.layout.rawValue): "
                     + plan.screens.indices.map { "\(plan.screens[$0].connector ?? "?") (\(plan.role(ofScreen: $0)))" }
                        .joined(separator: ", "))
        }
        startup.reached("display open")
        self.startup = startup
        let clock = ClockTrust(mode: loaded.shell.sync.trustClock, loop: loop)
        carousels = try Self.makeCarousels(backend, loaded: loaded, options: options, clock: clock, loop: loop)
        try carousels.startSync(loaded.shell, loop: loop)
        publisher = StatusPublisher(notifier: notifier, live: live, carousels: carousels, time: loop.time)
        operations = try Operations(carousels: carousels, outputs: backend.outputs,
                                    screenNames: backend.plan.screens.map(\.connector), live: live, publisher: publisher,
                                    loop: loop, controlPath: options.controlPath)
        router = InputRouter(carousels: carousels, backend: backend, operations: operations, loop: loop)
        reload = try ReloadCoordinator(live: live, options: options, backend: backend, carousels: carousels,
                                       operations: operations, router: router, publisher: publisher, loop: loop)
        operations.reload = reload
        watchdog = Watchdog(notifier: notifier, loop: loop)
        try wire()
    }

    /// The first load: an invalid directory ends the start, naming every problem.
    private static func loadConfig(_ directory: String, notifier: Notifier, loop: EventLoop) throws -> LiveConfig {
        do {
            let live = try LiveConfig(directory: directory, notifier: notifier, loop: loop)
            let loaded = live.current
            Log.info("config \(loaded.directory): \(loaded.playlist.count) pictures from "
                     + (loaded.playlistFile ?? loaded.mediaDirectory))
            return live
        } catch let error as ConfigLoadError {
            Log.error("config \(directory) is invalid (\(error.problems.count) problem(s)):")
            error.problems.forEach { Log.error($0) }
            notifier.status(StatusLine.invalid(error.problems))
            throw ExitCode.failure
        }
    }

    private static func makeCarousels(_ backend: Backend, loaded: LoadedConfig, options: DaemonOptions,
                                      clock: ClockTrust, loop: EventLoop) throws -> Carousels {
        let plan = backend.plan
        // The engine clock (and the first auto-advance interval) starts just before the first frame.
        let now = loop.time.now()
        let cache = CardCache.forDaemon(directory: options.cacheDirectory, shell: options.overriding(loaded.shell))
        let groups = try plan.groups.map { group in
            try ScreenGroup(plan: group, layout: plan.layout, outputs: group.screens.map { backend.outputs[$0] },
                            rotations: group.screens.map(backend.rotation(ofScreen:)),
                            config: group.config, shell: loaded.shell,
                            items: items(of: group, in: loaded, at: clock.trustedNow),
                            loop: loop, now: now, cache: cache)
        }
        return Carousels(plan: plan, groups: groups, clock: clock, time: loop.time)
    }

    /// The playlist a carousel shows: its screen's own (independent), or the main one (the
    /// daypart's at wall-clock time `at`; nil while the clock is not believed: the main playlist).
    static func items(of group: ScreenPlan.Group, in loaded: LoadedConfig, at wallClock: Double?) -> [PlaylistItem] {
        group.playlistOutput.map { loaded.playlist(forOutput: $0) } ?? loaded.daypart(at: wallClock).items
    }

    /// A display error, with the `[[output]]` table's file and line when one names a connector
    /// the machine does not have (`output = "NAME"` and `--output` keep the display's message).
    private static func explain(_ error: DisplayError, tables: [OutputTable], file: String) {
        if case .connectorNotFound(let name, let available) = error,
           let problem = OutputTables.unknownConnectors(tables.filter { $0.name == name && $0.line != nil },
                                                        available: available, file: file).first {
            return Log.error(problem.description)
        }
        Log.error("\(error)")
    }

    private func wire() throws {
        loop.isAnimating = { [unowned self] in carousels.isAnimatingOnScreen }
        for group in carousels.groups { group.delegate = self }
        backend.onEnd = { [unowned self] end in
            switch end {
            case .closed:
                Log.info("the compositor closed the window")
                stop(reason: "closed")
            case .failed(let error):
                Log.error("\(error); exiting (status 1)")
                publisher.notifier.status("\(error)")
                Glibc.exit(1)
            }
        }
        signalWatch = try loop.watch(signals.fd, name: "signals") { [unowned self] in
            for signal in signals.drain() { handle(signal: signal) }
        }
        if !operations.power.isOn {
            // Started during the screen's off hours: nothing will be drawn, yet the daemon is up,
            // and a touch must be able to wake the screen.
            loop.post { [unowned self] in
                Log.info("started with the screen off (\(operations.power.state.reason)); a touch wakes it")
                publisher.notifier.ready()
                router.start(live.current.shell)
            }
        }
        publisher.publish()
    }

    /// Shows the first frame and runs until SIGTERM or SIGINT.
    func run() throws {
        start()
        try loop.run()
        Log.info("exited after \(carousels.framesPresented) frames and \(loop.wakeups) wakeups")
    }

    /// Shows the first frame; the loop's turns do the rest (`run`, or a test's).
    func start() {
        for group in carousels.groups { group.daemon.start() }
        if backend.outputs.allSatisfy({ $0.size == nil }) {
            // Started, but nothing to show on yet: systemd must not time the start out (the
            // display may take any time), and `systemctl status` says what is awaited.
            publisher.notifier.ready()
            publisher.notifier.status("waiting for a display: \(backend.outputs.map(\.summary).joined(separator: "; "))")
        }
    }

    // MARK: - ScreenGroupDelegate

    func group(_ group: ScreenGroup, firstFrameAt time: Double) {
        if !group.daemon.engine.isMoving {
            carousels.plays.rested(group, index: group.daemon.engine.selectedIndex, at: time)
        }
        guard group === carousels.groups[0] else { return }   // the lead's ends the start
        Log.info("first frame on screen \(startup.sinceExec(time)) after exec (\(startup)): "
                 + backend.outputs.map(\.summary).joined(separator: "; "))
        publisher.notifier.ready()
        publisher.publish()
        router.start(live.current.shell)
    }

    /// Releases (with their velocity) and taps go to the journal, as `carouseld replay` prints
    /// them; a carousel at rest says what it shows.
    func group(_ group: ScreenGroup, reported event: CarouselEvent) {
        guard case .settled(let time, let index) = event else { return Log.info(group.prefix + EventReport.logLine(event)) }
        // Before a daypart's bridge strip is swapped for the new playlist: `index` is the bridge's.
        carousels.plays.rested(group, index: index, at: time)
        group.settled(now: loop.time.now())
        Log.info(group.prefix + group.showing)
        publisher.publish()
    }

    func groupResized(_ group: ScreenGroup) { router.reconfigure(live.current.shell) }

    func group(_ group: ScreenGroup, leftRestBecause cause: MoveCause, at time: Double) {
        carousels.plays.left(group, because: cause, at: time)
    }

    func group(_ group: ScreenGroup, restsAfterSwapBecause cause: MoveCause, at time: Double) {
        carousels.plays.restsNow(group, at: time, cause: cause)
    }

    private func handle(signal: Int32) {
        switch signal {
        case SIGHUP:
            Log.info("SIGHUP: reloading \(live.current.directory)")
            reload.requestReload()
        case SIGUSR1:
            logStatistics()
        default:
            stop(reason: signal == SIGTERM ? "SIGTERM" : "SIGINT")
        }
    }

    /// For soak tests and operators: what months of running would show first. The longest
    /// gaps are since the previous SIGUSR1.
    private func logStatistics() {
        let gap = loop.takeLongestAnimatingGap(), pingGap = watchdog.takeLongestGap()
        Log.notice("stats: frames \(carousels.framesPresented), wakeups \(loop.wakeups), "
                   + formatted("longest loop gap while animating %.1f ms, ", gap * 1000)
                   + "watchdog pings \(watchdog.pings)"
                   + (watchdog.interval.map { formatted(" every %.2f s, longest gap %.2f s", $0, pingGap) } ?? "")
                   + backend.outputs.compactMap { $0.statistics.map { ", " + $0 } }.joined())
    }

    /// Gives the screens back and ends `run()`.
    func stop(reason: String) {
        Log.info("\(reason): giving the screen back and exiting")
        publisher.notifier.stopping()
        publisher.metrics?.remove()
        carousels.plays.stop()
        for group in carousels.groups { group.daemon.stop() }
        operations.power.screens.stop()
        for output in backend.outputs { output.restore() }
        loop.stop()
    }
}
