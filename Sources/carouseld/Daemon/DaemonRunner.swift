import ArgumentParser
import CarouselEngine
import Glibc

/// What `carouseld run` was asked for on the command line.
struct DaemonOptions {
    var configDirectory: String
    var output: String?
    var mode: String?
    var rotation: Int?
    var forceLegacy = false
    var backend: DisplayBackend?
    /// Card cache directory (`--cache-dir`); else systemd's $CACHE_DIRECTORY.
    var cacheDirectory: String? = nil
    /// Control socket (`--control`); else in systemd's $RUNTIME_DIRECTORY or /run/carouseld.
    var controlPath: String? = nil

    /// The config's shell settings with the command line winning.
    func overriding(_ shell: ShellSettings) -> ShellSettings {
        var settings = shell
        if let output {
            settings.output = output
            settings.outputs = []   // one named connector on the command line: that screen alone
        }
        if let mode { settings.mode = mode }
        if let rotation { settings.rotation = rotation }
        if forceLegacy { settings.forceLegacy = true }
        if let backend { settings.backend = backend }
        return settings
    }
}

/// Wires the daemon's parts to one event loop: config directory (inotify, SIGHUP), image stores
/// (eventfd), displays (DRM fd and udev hotplug, or the Wayland connection), input (libinput fd,
/// or the Wayland seat), signals, systemd notification and watchdog.
///
/// Screens: one carousel (`ScreenGroup`) per independent screen, or one for all mirrored or
/// spanned screens (`ScreenPlan`). The first group leads: the reload and the watchdog wake
/// its loop turns, and its first frame is the start's end (READY=1).
final class DaemonRunner {
    let options: DaemonOptions
    let loop: EventLoop
    private let signals: SignalSource
    let notifier = Notifier()
    let live: LiveConfig
    /// KMS, fbdev or Wayland, as resolved at start.
    private let backend: DisplayBackend
    /// Which screens show which carousel; fixed until restart (like output and mode).
    private let plan: ScreenPlan
    /// One per screen of the plan.
    let displays: [DisplayOutput]
    /// The display when it is a Wayland compositor's window (input then comes from its seat).
    let wayland: WaylandOutput?
    private(set) var groups: [ScreenGroup] = []
    private var watchdog: Watchdog
    private var input: InputSource?
    /// The input devices being opened off the loop (kept alive until they are handed over).
    private var inputOpening: BackgroundTask<Result<InputSource, Error>>?
    /// The image stores' ready fds being watched.
    private var watchedStores: [Int32] = []
    /// One per carousel with `sync = "wallclock"` (fixed until restart).
    var syncs: [WallClockSync?] = []
    // Operations (DaemonRunner+Operations.swift)
    var power: PowerController?
    var dayparts: DaypartController?
    var control: ControlServer?
    var stateFile: StateFile?
    /// The fingers of the touch that woke the screen, still down.
    var swallowedSlots = Set<Int>()
    var swallowingWake = false
    /// `ctl pause` holds every carousel's auto-advance.
    var ctlPaused = false
    /// 1 at start, one more per reload that changed something.
    var generation = 1
    let startedAt = MonotonicClock.now()

    /// Milestones of the start, in ms after exec, for the first-frame log line.
    private var startup: [String] = []

    var lead: Daemon { groups[0].daemon }

    init(_ options: DaemonOptions) throws {
        self.options = options
        var startup = [Self.milestone("main")]
        // Blocked before any thread starts (the decode worker), so every thread inherits the mask.
        signals = try SignalSource(signals: [SIGTERM, SIGINT, SIGHUP, SIGUSR1])
        loop = try EventLoop()
        do {
            live = try LiveConfig(directory: options.configDirectory, notifier: notifier)
        } catch let error as ConfigLoadError {
            Log.error("config \(options.configDirectory) is invalid (\(error.problems.count) problem(s)):")
            error.problems.forEach { Log.error($0) }
            notifier.status(StatusLine.invalid(error.problems))
            throw ExitCode.failure
        }
        startup.append(Self.milestone("config loaded"))
        let loaded = live.current
        Log.info("config \(loaded.directory): \(loaded.playlist.count) pictures from "
                 + (loaded.playlistFile ?? loaded.mediaDirectory))
        let shell = options.overriding(loaded.shell)
        let backend = shell.backend.resolved
        self.backend = backend
        let plan = Self.makePlan(shell, config: loaded.config, backend: backend)
        self.plan = plan
        do {
            (displays, wayland) = try Self.openDisplays(shell, plan: plan, backend: backend)
        } catch {
            Self.explain(error, tables: shell.outputTables(loaded.config), file: loaded.directory + "/" + ConfigLoader.configFileName)
            notifier.status("display: \(error)")
            throw ExitCode.failure
        }
        if plan.screens.count > 1 {
            Log.info("\(plan.screens.count) screens, layout \(plan.layout.rawValue): "
                     + plan.screens.indices.map { "\(plan.screens[$0].connector ?? "?") (\(plan.role(ofScreen: $0)))" }
                        .joined(separator: ", "))
        }
        startup.append(Self.milestone("display open"))
        // The engine clock (and the first auto-advance interval) starts just before the first frame.
        let now = MonotonicClock.now()
        watchdog = Watchdog(notifier: notifier, now: now)
        self.startup = startup
        let cache = CardCache.forDaemon(directory: options.cacheDirectory, shell: shell)
        groups = try plan.groups.map { group in
            try ScreenGroup(plan: group, layout: plan.layout, outputs: group.screens.map { displays[$0] },
                            rotations: group.screens.map { wayland == nil ? plan.screens[$0].settings.rotation : 0 },
                            config: group.config, shell: loaded.shell, items: Self.items(of: group, in: loaded),
                            loop: loop, now: now, cache: cache)
        }
        try wire()
    }

    /// The screens to drive. Without `[[output]]` tables on KMS, every connector in `connected`,
    /// or (nil) every connector connected now.
    private static func makePlan(_ shell: ShellSettings, config: CarouselConfig, backend: DisplayBackend,
                                 connected: [String]? = nil) -> ScreenPlan {
        guard backend == .drm || backend == .auto else {
            if !shell.outputs.isEmpty {
                Log.warning("[[output]] tables are for KMS screens; the \(backend.rawValue) backend shows one screen")
            }
            var single = shell
            single.outputs = []
            return ScreenPlan.make(shell: single, config: config)
        }
        let connected = shell.outputTables(config).isEmpty ? connected ?? DisplayOpener.connectedConnectors() : []
        return ScreenPlan.make(shell: shell, config: config, connected: connected)
    }

    /// The playlist a carousel shows: its screen's own (independent), or the main one.
    static func items(of group: ScreenPlan.Group, in loaded: LoadedConfig) -> [PlaylistItem] {
        group.playlistOutput.map { loaded.playlist(forOutput: $0) } ?? loaded.daypart(at: RealtimeTimer.now()).items
    }

    /// The compositor's window under Wayland, else a KMS or fbdev screen per plan screen
    /// (each waited for if absent).
    private static func openDisplays(_ shell: ShellSettings, plan: ScreenPlan, backend: DisplayBackend)
        throws(DisplayError) -> ([DisplayOutput], WaylandOutput?) {
        guard backend == .wayland else {
            var displays: [DisplayOutput] = []
            for screen in plan.screens { displays.append(try DisplaySupervisor(settings: screen.settings, backend: backend)) }
            return (displays, nil)
        }
        if shell.rotation != 0 {
            Log.warning("rotation = \(shell.rotation) is ignored under Wayland: the compositor turns the screen "
                        + "(cage -r, or transform= in the [output] section of weston.ini)")
        }
        let output = try WaylandOutput(connection: try WaylandConnection(), settings: shell)
        return ([output], output)
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

    /// "main 412 ms": how long after exec the start reached `name`.
    private static func milestone(_ name: String) -> String {
        let ms = ExecClock.sinceExec(atMonotonic: MonotonicClock.now()).map { formatted("%.0f", $0 * 1000) } ?? "?"
        return "\(name) \(ms) ms"
    }

    /// Shows the first frame and runs until SIGTERM or SIGINT.
    func run() throws {
        for group in groups { group.daemon.start() }
        if displays.allSatisfy({ $0.size == nil }) {
            // Started, but nothing to show on yet: systemd must not time the start out (the
            // display may take any time), and `systemctl status` says what is awaited.
            notifier.ready()
            notifier.status("waiting for a display: \(displays.map(\.summary).joined(separator: "; "))")
        }
        try loop.run()
        Log.info("exited after \(groups.reduce(0) { $0 + $1.daemon.framesPresented }) frames and \(loop.wakeups) wakeups")
    }

    private func wire() throws {
        loop.isAnimating = { [unowned self] in groups.contains { $0.daemon.engine.isMoving } }
        lead.onFirstFrame = { [unowned self] time in
            let exec = ExecClock.sinceExec(atMonotonic: time).map { formatted("%.0f ms", $0 * 1000) } ?? "?"
            Log.info("first frame on screen \(exec) after exec (\(startup.joined(separator: ", "))): "
                     + displays.map(\.summary).joined(separator: "; "))
            notifier.ready()
            announce()
            if wayland == nil { loop.post { [unowned self] in openInput() } }
        }
        for group in groups {
            group.daemon.onEvent = { [unowned self, unowned group] event in
                // Releases (with their velocity) and taps go to the journal, as `carouseld replay` prints them.
                guard case .settled = event else { return Log.info(group.prefix + EventReport.logLine(event)) }
                group.settled(now: MonotonicClock.now())
                Log.info(group.prefix + group.showing)
                publish()
            }
            group.daemon.onResize = { [unowned self, unowned group] _ in
                group.rebuildRenderers()
                reconfigureInput(live.current.shell)
            }
            group.onStoresChanged = { [unowned self] in watchStores() }
        }
        if let wayland { wireWayland(wayland) }
        try loop.add(fd: signals.fd, name: "signals") { [unowned self] in
            for signal in signals.drain() { handle(signal: signal) }
        }
        try loop.add(fd: live.fd, name: "config inotify") { [unowned self] in
            live.handleReadable(now: MonotonicClock.now())
            lead.wake()
        }
        try loop.add(fd: live.loadFD, name: "config load finished") { [unowned self] in
            live.handleLoaded()
            lead.wake()
        }
        lead.addWakeup(deadline: { [unowned self] in live.nextDeadline }) { [unowned self] now in
            live.reloadIfDue(into: self, now: now)
        }
        lead.addWakeup(deadline: { [unowned self] in watchdog.nextDeadline }) { [unowned self] now in
            watchdog.fire(now: now)
        }
        watchStores()
        if live.current.shell.sync == .wallclock {
            syncs = try groups.map { try WallClockSync(group: $0, shell: live.current.shell, loop: loop) }
        }
        try wireOperations()
    }

    /// Input reached carousel `group`: a sleeping screen wakes (and the touch does nothing
    /// else); a synced carousel leaves the clock for `sync_resume` seconds.
    private func apply(_ action: InputAction, toGroup group: Int) {
        guard groups.indices.contains(group) else { return }
        // The touch that wakes a sleeping screen, down to its lift, does nothing else.
        if let power, power.touched() { swallowedSlots = []; swallow(action); return }
        if swallowingWake { swallow(action); return }
        if syncs.indices.contains(group) { syncs[group]?.touched(now: MonotonicClock.now()) }
        groups[group].daemon.updateEngine { $0.apply(action) }
    }

    /// Follows the fingers of a waking touch until they have all lifted.
    private func swallow(_ action: InputAction) {
        guard case .touch(let frame) = action else { return }
        for sample in frame.samples {
            if sample.phase == .up || sample.phase == .cancel { swallowedSlots.remove(sample.slot) }
            else { swallowedSlots.insert(sample.slot) }
        }
        swallowingWake = !swallowedSlots.isEmpty
    }

    /// systemd's status line: what each carousel shows (and an invalid config on disk).
    func announce() {
        let now = MonotonicClock.now()
        let sync = syncs.first.flatMap { $0 }.map { "; " + $0.state(now: now) } ?? ""
        guard groups.count > 1 else {
            return notifier.status(live.controller.statusText(selectedIndex: lead.engine.selectedIndex) + sync)
        }
        let showing = groups.map { $0.prefix + $0.showing }.joined(separator: "; ") + sync
        let problems = live.controller.problems
        notifier.status(problems.isEmpty ? showing : StatusLine.invalid(problems) + "; " + showing)
    }

    /// The compositor's seat feeds the engine; a compositor that goes away ends the daemon
    /// with status 1, so systemd restarts it.
    private func wireWayland(_ wayland: WaylandOutput) {
        wayland.onFailure = { [unowned self] error in
            Log.error("\(error); exiting (status 1)")
            notifier.status("\(error)")
            Glibc.exit(1)
        }
        wayland.onClose = { [unowned self] in
            Log.info("the compositor closed the window")
            handle(signal: SIGTERM)
        }
        wayland.seat?.onActions = { [unowned self] actions in
            for action in actions { apply(action, toGroup: 0) }
        }
        reconfigureInput(live.current.shell)
        wayland.seat?.startupFinished()
    }

    /// A decoded card that is on screen means a new frame; prefetched neighbours do not.
    private func watchStores() {
        for fd in watchedStores { loop.remove(fd: fd) }
        watchedStores = []
        for group in groups {
            for store in group.allStores where store.readyFD >= 0 {
                do {
                    try loop.add(fd: store.readyFD, name: "cards decoded") { [unowned group, unowned store] in
                        let update = store.drainReady()
                        let visible = Set(group.daemon.engine.layout().cards.map(\.index))
                        Log.debug("cards decoded \(update.ready), failed \(update.failed); on screen \(visible.sorted())")
                        if !visible.isDisjoint(with: update.ready + update.failed) { group.daemon.setNeedsRedraw() }
                    }
                    watchedStores.append(store.readyFD)
                } catch {
                    Log.error("watching the image store: \(error)")
                }
            }
        }
    }

    /// Input devices are opened once the first frame is on screen, and on a thread of their
    /// own: libinput opens every device of the seat (seconds on a slow box), and the carousel
    /// keeps moving meanwhile. The context is handed to the loop, which alone uses it after.
    func openInput() {
        // Once: a screen that started dark opens them before its first frame.
        guard input == nil, inputOpening == nil else { return }
        let settings = live.current.shell
        let (targets, routing) = touchTargets()
        do {
            let opening = try BackgroundTask<Result<InputSource, Error>>(name: "carouseld-input")
            inputOpening = opening
            try loop.add(fd: opening.fd, name: "input devices opened") { [unowned self] in
                guard let opened = opening.take() else { return }
                loop.remove(fd: opening.fd)
                inputOpening = nil
                switch opened {
                case .success(let source): watch(source)
                case .failure(let error): Log.warning("\(error); running without touch, keyboard and pointer")
                }
            }
            opening.start { Result { try InputSource(settings: settings, targets: targets, routing: routing) } }
        } catch {
            Log.warning("opening input devices: \(error); running without touch, keyboard and pointer")
        }
    }

    /// Where each screen's touches go, in the plan's screen order, and how devices find their screen.
    private func touchTargets() -> ([TouchTarget], TouchRouting) {
        var targets = [TouchTarget?](repeating: nil, count: plan.screens.count)
        for (index, group) in groups.enumerated() {
            for (screen, target) in zip(group.plan.screens, group.touchTargets(group: index)) { targets[screen] = target }
        }
        let routing = TouchRouting(screens: plan.screens.map { (connector: $0.connector ?? "", touch: $0.touch) })
        return (targets.compactMap { $0 }, routing)
    }

    /// Feeds input to the carousels; which fingers are down is each engine's recogniser's business.
    private func watch(_ source: InputSource) {
        input = source
        // The screens or the config may have changed while the devices were being opened.
        reconfigureInput(live.current.shell)
        do {
            try loop.add(fd: source.fd, name: "libinput") { [unowned self] in
                for (group, action) in source.dispatch() { apply(action, toGroup: group) }
            }
        } catch {
            Log.error("watching input devices: \(error)")
        }
    }

    private func handle(signal: Int32) {
        switch signal {
        case SIGHUP:
            Log.info("SIGHUP: reloading \(live.current.directory)")
            live.requestReload()
            lead.wake()
        case SIGUSR1:
            // For soak tests and operators: what months of running would show first. The
            // longest gaps are since the previous SIGUSR1.
            let gap = loop.takeLongestAnimatingGap(), pingGap = watchdog.takeLongestGap()
            let frames = groups.reduce(0) { $0 + $1.daemon.framesPresented }
            Log.notice("stats: frames \(frames), wakeups \(loop.wakeups), "
                       + formatted("longest loop gap while animating %.1f ms, ", gap * 1000)
                       + "watchdog pings \(watchdog.pings)"
                       + (watchdog.interval.map { formatted(" every %.2f s, longest gap %.2f s", $0, pingGap) } ?? "")
                       + displays.compactMap { $0.statistics.map { ", " + $0 } }.joined())
        default:
            Log.info("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): giving the screen back and exiting")
            notifier.stopping()
            for group in groups { group.daemon.stop() }
            for display in displays { display.restore() }
            loop.stop()
        }
    }

    /// New settings or new screen sizes for whichever input there is: libinput's devices, or
    /// the Wayland seat (which leaves rotation to the compositor).
    private func reconfigureInput(_ shell: ShellSettings) {
        if let input {
            let (targets, routing) = touchTargets()
            input.reconfigure(settings: shell, targets: targets, routing: routing)
        }
        wayland?.seat?.reconfigure(settings: shell, screen: displays[0].size ?? lead.engine.viewport)
    }
}

/// Step 5 of the reload (`LiveConfig`): the new config goes into every carousel (engine, image
/// stores) and the input, while the strips rest.
extension DaemonRunner: ReloadTarget {
    var isMoving: Bool { groups.contains { $0.daemon.engine.isMoving } }
    var selectedIndex: Int { lead.engine.selectedIndex }

    func swapIn(_ loaded: LoadedConfig, keepIndex: Int?, now: Double) {
        // The same rules as at start; without tables, the screens in use stay the ones found then.
        let next = Self.makePlan(options.overriding(loaded.shell), config: loaded.config, backend: backend,
                                 connected: plan.screens.compactMap(\.connector))
        if next.screens != plan.screens || (plan.screens.count > 1 && next.layout != plan.layout) {
            Log.notice("output, layout, mode, rotation and force_legacy changes take effect when carouseld restarts")
        }
        for group in groups {
            // The same carousel in the new config (independent screens by name), else the top level.
            let updated = next.groups.first { $0.name == group.plan.name }
                ?? ScreenPlan.Group(name: group.plan.name, screens: group.plan.screens, config: loaded.config)
            let items = Self.items(of: updated, in: loaded)
            let old = group.daemon.engine.selectedIndex
            let keep = group.items.indices.contains(old)
                ? ReloadController.index(of: group.items[old].path, in: items, near: old) : nil
            group.swapIn(config: updated.config, shell: loaded.shell, items: items, keepIndex: keep, now: now)
        }
        if (loaded.shell.sync == .wallclock) != !syncs.isEmpty {
            Log.notice("sync changes take effect when carouseld restarts")
        }
        for sync in syncs { sync?.configure(shell: loaded.shell) }
        power?.configure(shell: loaded.shell)
        dayparts?.configure(loaded)
        generation += 1
        reconfigureInput(loaded.shell)
        publish()
    }
}
