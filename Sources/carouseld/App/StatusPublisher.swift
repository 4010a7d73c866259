import CarouselBackends
import CarouselConfig
import CarouselCore
/// What the operations know that the status tells: the screen's power, the daypart in force,
/// whether `ctl pause` holds the carousels.
protocol OperationsState: AnyObject {
    var screen: (on: Bool, reason: String) { get }
    /// What the screen schedule alone says now.
    var screenScheduledOn: Bool { get }
    /// The TV's reported power (CEC); nil without a CEC adapter.
    var tv: TVPower? { get }
    /// The `[[playlist]]` file in force; nil for the main playlist.
    var daypartFile: String? { get }
    var isPaused: Bool { get }
}

/// The one writer of systemd's status line and of `state.json`: every part of the daemon that
/// changes what they say asks `publish()`, and both are made from the same state here, so no
/// part can overwrite another's text.
final class StatusPublisher {
    let notifier: Notifier
    private let live: LiveConfig
    private let carousels: Carousels
    private let time: TimeSource
    private let operations: OperationsState
    /// Beside the control socket; nil without one.
    private let stateFile: StateFile?
    /// `metrics_file`; nil when off.
    private(set) var metrics: MetricsFile?
    /// The loop's gaps while animating (the SIGUSR1 line, the metrics).
    let stalls: StallMeter
    /// 1 at start, one more per reload that changed something.
    private(set) var generation = 1
    let startedAt: Double

    init(notifier: Notifier, live: LiveConfig, carousels: Carousels, operations: OperationsState, stateFile: StateFile?,
         loop: EventLoop, stalls: StallMeter) {
        self.notifier = notifier; self.live = live; self.carousels = carousels; self.operations = operations
        self.stateFile = stateFile; self.stalls = stalls; time = loop.time
        startedAt = time.now()
        metrics = live.current.shell.reporting.metricsFile.map { path in
            MetricsFile(path: path, loop: loop, stalls: stalls, cacheFallback: carousels.cacheFallback, status: { [unowned self] in status() })
        }
    }

    /// A reload changed the config.
    func configChanged() { generation += 1 }

    /// The status line and state.json, after anything that changes what they say.
    func publish() {
        notifier.status(statusLine())
        guard stateFile != nil || metrics != nil else { return }
        let current = status()
        stateFile?.write(current)
        metrics?.changed(current)
    }

    /// "showing 3/12 beach.jpg", each carousel's with several, the sync state, an invalid
    /// config on disk first, failed pictures last.
    func statusLine() -> String {
        let problems = live.controller.problems
        let failed = failedCards()
        return (problems.isEmpty ? "" : StatusLine.invalid(problems) + "; ")
            + carousels.showing(now: time.now())
            + (failed.isEmpty ? "" : "; " + StatusLine.failed(failed))
    }

    func status() -> DaemonStatus {
        let now = time.now()
        let outputs = carousels.all.map { carousel -> DaemonStatus.Carousel in
            let index = carousel.engine.selectedIndex
            return DaemonStatus.Carousel(output: carousel.plan.name, index: index + 1, count: carousel.items.count,
                                         name: carousel.items.indices.contains(index) ? carousel.items[index].name : nil,
                                         interval: carousel.config.interval)
        }
        let first = outputs[0]
        let loaded = live.current
        let playlist = operations.daypartFile.map { loaded.directory + "/" + $0 } ?? loaded.playlistFile ?? loaded.mediaDirectory
        let screen = operations.screen
        return DaemonStatus(
            showing: .init(index: first.index, count: first.count, name: first.name, playlist: playlist,
                           outputs: outputs, failed: failedCards().nilIfEmpty),
            display: .init(screen: screen.on ? "on" : "off", screenReason: screen.reason, screenScheduled: operations.screenScheduledOn ? "on" : "off",
                           tv: operations.tv?.rawValue,
                           sync: carousels.syncs.first?.state(now: now), paused: operations.isPaused,
                           clock: carousels.clock.isTrusted ? DaemonStatus.Display.synchronised : DaemonStatus.Display.notSynchronised),
            process: .init(generation: generation, configError: live.controller.problems.first,
                           uptime: ((now - startedAt) * 1000).rounded() / 1000, frames: carousels.framesPresented))
    }

    /// "a4.png: truncated PNG data" for each picture whose card could not be made, once each.
    private func failedCards() -> [String] {
        var seen = Set<String>()
        return carousels.all.flatMap(\.failedCards).filter { seen.insert($0).inserted }
    }

    /// The SIGUSR1 line, for soak tests and operators: what months of running would show first.
    /// The longest gaps are since the previous SIGUSR1.
    func statistics(loop: EventLoop, watchdog: Watchdog, outputs: [any DisplayOutput]) -> String {
        let gap = stalls.takeLongestGap(), pingGap = watchdog.takeLongestGap()
        return "stats: frames \(carousels.framesPresented), wakeups \(loop.wakeups), "
            + formatted("longest loop gap while animating %.1f ms, ", gap * 1000)
            + "watchdog pings \(watchdog.pings)"
            + (watchdog.interval.map { formatted(" every %.2f s, longest gap %.2f s", $0, pingGap) } ?? "")
            + outputs.compactMap { $0.statistics.map { ", " + $0 } }.joined()
    }
}

extension Array {
    var nilIfEmpty: Self? { isEmpty ? nil : self }
}
