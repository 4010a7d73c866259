import ArgumentParser
import CarouselBackends
import CarouselConfig
import CarouselCore
/// The reload, wired to the loop (`LiveConfig` has the steps): the config directory's inotify
/// events are watched, a finished background load rearms, and the debounce, the load and the swap are
/// due on one timer of the loop, by the real clock. A swap puts the new config into every
/// carousel, the operations and the input, while the strips rest; the status is published once
/// it is all in place.
final class ReloadCoordinator {
    private let live: LiveConfig
    private let options: DaemonOptions
    private let backend: Backend
    private let carousels: Carousels
    private let operations: Operations
    private let router: InputRouter
    private let publisher: StatusPublisher
    private let events: AppEvents
    private var watches: [Watch] = []
    private var timer: LoopTimer?

    init(live: LiveConfig, options: DaemonOptions, backend: Backend, carousels: Carousels, operations: Operations,
         router: InputRouter, publisher: StatusPublisher, events: AppEvents, loop: EventLoop) throws {
        self.live = live; self.options = options; self.backend = backend; self.carousels = carousels
        self.operations = operations; self.router = router; self.publisher = publisher; self.events = events
        timer = loop.timer("config reload", owner: self) { $0.reloadIfDue(now: $1) }
        watches = [
            try loop.watch(live.fd, name: "config inotify", owner: self) { [time = loop.time] owner in
                owner.live.handleReadable(now: time.now())
                owner.rearm()
            },
        ]
    }

    /// The background load finished (`AppEvent.configLoaded`): its result is checked and swapped
    /// in the turn it arrives, if the strips rest.
    func loaded(now: Double) { reloadIfDue(now: now) }

    /// SIGHUP and `ctl reload`: reload on the loop's next turn, without waiting for the debounce.
    func requestReload() {
        live.requestReload()
        rearm()
    }

    private func rearm() { timer?.schedule(at: live.nextDeadline) }

    private func reloadIfDue(now: Double) {
        let lead = carousels.lead.engine
        if let outcome = live.reloadIfDue(now: now, isMoving: carousels.isMoving, selectedIndex: lead.selectedIndex) {
            if case .applied = outcome { swapIn(live.current, now: now) }
            finished(outcome)
        }
        rearm()
    }

    /// A reload that changed nothing may still have been caused by a picture written anew: the
    /// cards that failed are tried again if their file changed. Then the status tells.
    private func finished(_ outcome: ReloadController.Outcome) {
        if case .rejected = outcome { return events.emit(.statusChanged) }
        for carousel in carousels.all { carousel.retryChangedFailures() }
        events.emit(.statusChanged)
    }

    /// Puts a new, valid config in place: each carousel keeps the picture it shows.
    private func swapIn(_ loaded: LoadedConfig, now: Double) {
        let next = backend.plan(for: options.overriding(loaded.shell), config: loaded.config)
        let plan = carousels.plan
        if next.screens != plan.screens || (plan.screens.count > 1 && next.layout != plan.layout) {
            Log.notice("output, layout, mode, rotation, force_legacy and planes changes take effect when carouseld restarts")
        }
        for carousel in carousels.all {
            // The same carousel in the new config (independent screens by name), else the top level.
            let updated = next.carousels.first { $0.name == carousel.plan.name }
                ?? ScreenPlan.CarouselPlan(name: carousel.plan.name, screens: carousel.plan.screens, config: loaded.config)
            let items = loaded.items(of: updated, at: carousels.clock.trustedNow)
            let old = carousel.engine.selectedIndex
            let keep = carousel.items.indices.contains(old)
                ? ReloadController.index(of: carousel.items[old].path, in: items, near: old) : nil
            carousel.swapIn(config: updated.config, shell: loaded.shell, items: items, keepIndex: keep, now: now, cause: .reload,
                          configDigest: loaded.configDigest)
        }
        if (loaded.shell.sync.mode == .wallclock) == carousels.syncs.isEmpty {
            Log.notice("sync changes take effect when carouseld restarts")
        }
        for sync in carousels.syncs { sync.configure(shell: loaded.shell) }
        operations.configure(loaded)
        publisher.configChanged()
        router.reconfigure(loaded.shell)
    }
}

extension LiveConfig {
    /// The first load: an invalid directory starts on the last good config when one was kept
    /// (systemd's StateDirectory=, `$STATE_DIRECTORY/last-good-config`: a config cut
    /// half-written by a power failure), else ends the start, naming every problem.
    static func first(_ directory: String, notifier: Notifier, loop: EventLoop, events: AppEvents) throws -> LiveConfig {
        let lastGood = UnitDirectory.first("STATE_DIRECTORY").map { "\($0)/last-good-config" }
        do {
            let live = try LiveConfig(directory: directory, lastGood: lastGood, notifier: notifier, loop: loop) {
                events.emit(.configLoaded)
            }
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
}
