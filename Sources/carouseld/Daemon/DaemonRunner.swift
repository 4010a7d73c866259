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

    /// The config's shell settings with the command line winning.
    func overriding(_ shell: ShellSettings) -> ShellSettings {
        var settings = shell
        if let output { settings.output = output }
        if let mode { settings.mode = mode }
        if let rotation { settings.rotation = rotation }
        if forceLegacy { settings.forceLegacy = true }
        if let backend { settings.backend = backend }
        return settings
    }

    /// The display settings: config keys, with the command line winning.
    func outputSettings(_ shell: ShellSettings) -> OutputSettings { OutputSettings(overriding(shell)) }
}

/// Wires the daemon's parts to one event loop: config directory (inotify, SIGHUP), image store
/// (eventfd), display (DRM fd and udev hotplug, or the Wayland connection), input (libinput fd,
/// or the Wayland seat), signals, systemd notification and watchdog.
final class DaemonRunner {
    private let options: DaemonOptions
    private let loop: EventLoop
    private let signals: SignalSource
    private let notifier = Notifier()
    private let live: LiveConfig
    private let display: DisplayOutput
    /// The display when it is a Wayland compositor's window (input then comes from its seat).
    private let wayland: WaylandOutput?
    private let daemon: Daemon
    private var renderer: CompositorRenderer
    private var watchdog: Watchdog
    private var input: InputSource?
    /// The input devices being opened off the loop (kept alive until they are handed over).
    private var inputOpening: BackgroundTask<Result<InputSource, Error>>?
    /// What the display was opened with (the command line wins; a reload does not change it).
    private let outputSettings: OutputSettings
    /// The rotation the display really uses (libinput's touches are turned with it; the
    /// Wayland seat's arrive turned by the compositor).
    private var displayRotation: Int { outputSettings.rotation }

    /// Milestones of the start, in ms after exec, for the first-frame log line.
    private var startup: [String] = []

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
        outputSettings = OutputSettings(shell)
        do {
            (display, wayland) = try Self.openDisplay(shell, settings: outputSettings)
        } catch {
            Log.error("\(error)")
            notifier.status("display: \(error)")
            throw ExitCode.failure
        }
        startup.append(Self.milestone("display open"))
        let viewport = display.size ?? Size(width: 1920, height: 1080)
        renderer = Self.makeRenderer(loaded, viewport: viewport)
        // The engine clock (and the first auto-advance interval) starts just before the first frame.
        let now = MonotonicClock.now()
        let engine = CarouselEngine(config: loaded.config, itemCount: loaded.playlist.count, viewport: viewport,
                                    now: now, itemDurations: loaded.itemDurations)
        daemon = try Daemon(engine: engine, output: display, renderer: renderer, loop: loop)
        loop.isAnimating = { [unowned daemon] in daemon.engine.isMoving }
        watchdog = Watchdog(notifier: notifier, now: now)
        self.startup = startup
        try wire()
    }

    /// The compositor's window under Wayland, else the KMS or fbdev screen (waited for if absent).
    private static func openDisplay(_ shell: ShellSettings, settings: OutputSettings)
        throws(DisplayError) -> (DisplayOutput, WaylandOutput?) {
        let backend = shell.backend.resolved
        guard backend == .wayland else { return (try DisplaySupervisor(settings: settings, backend: backend), nil) }
        if shell.rotation != 0 {
            Log.warning("rotation = \(shell.rotation) is ignored under Wayland: the compositor turns the screen "
                        + "(cage -r, or transform= in the [output] section of weston.ini)")
        }
        let output = try WaylandOutput(connection: try WaylandConnection(), settings: shell)
        return (output, output)
    }

    /// "main 412 ms": how long after exec the start reached `name`.
    private static func milestone(_ name: String) -> String {
        let ms = ExecClock.sinceExec(atMonotonic: MonotonicClock.now()).map { formatted("%.0f", $0 * 1000) } ?? "?"
        return "\(name) \(ms) ms"
    }

    /// Shows the first frame and runs until SIGTERM or SIGINT.
    func run() throws {
        daemon.start()
        if display.size == nil {
            // Started, but nothing to show on yet: systemd must not time the start out (the
            // display may take any time), and `systemctl status` says what is awaited.
            notifier.ready()
            notifier.status("waiting for a display: \(display.summary)")
        }
        try loop.run()
        Log.info("exited after \(daemon.framesPresented) frames and \(loop.wakeups) wakeups")
    }

    /// A reload's renderer takes over the decoded cards of the one it replaces.
    private static func makeRenderer(_ loaded: LoadedConfig, viewport: Size, replacing previous: ImageStore? = nil)
        -> CompositorRenderer {
        let store = ImageStore(paths: loaded.playlist.map(\.path), config: loaded.config, shell: loaded.shell,
                               viewport: viewport, replacing: previous)
        return CompositorRenderer(store: store, config: loaded.config)
    }

    private func wire() throws {
        daemon.onFirstFrame = { [unowned self] time in
            let exec = ExecClock.sinceExec(atMonotonic: time).map { formatted("%.0f ms", $0 * 1000) } ?? "?"
            Log.info("first frame on screen \(exec) after exec (\(startup.joined(separator: ", "))): \(display.summary)")
            notifier.ready()
            live.controller.announce(selectedIndex: daemon.engine.selectedIndex)
            if wayland == nil { loop.post { [unowned self] in openInput() } }
        }
        daemon.onEvent = { [unowned self] event in
            // Releases (with their velocity) and taps go to the journal, as `carouseld replay` prints them.
            guard case .settled(_, let index) = event else { return Log.info(EventReport.logLine(event)) }
            let playlist = live.current.playlist
            if playlist.indices.contains(index) { Log.info("showing \(index + 1)/\(playlist.count) \(playlist[index].name)") }
            live.controller.announce(selectedIndex: index)
        }
        daemon.onResize = { [unowned self] size in reconfigureInput(live.current.shell, screen: size) }
        if let wayland { wireWayland(wayland) }
        try loop.add(fd: signals.fd, name: "signals") { [unowned self] in
            for signal in signals.drain() { handle(signal: signal) }
        }
        try loop.add(fd: live.fd, name: "config inotify") { [unowned self] in
            live.handleReadable(now: MonotonicClock.now())
            daemon.wake()
        }
        try loop.add(fd: live.loadFD, name: "config load finished") { [unowned self] in
            live.handleLoaded()
            daemon.wake()
        }
        daemon.addWakeup(deadline: { [unowned self] in live.nextDeadline }) { [unowned self] now in
            live.reloadIfDue(into: self, now: now)
        }
        daemon.addWakeup(deadline: { [unowned self] in watchdog.nextDeadline }) { [unowned self] now in
            watchdog.fire(now: now)
        }
        try watchStore()
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
            for action in actions { daemon.updateEngine { $0.apply(action) } }
        }
        reconfigureInput(live.current.shell)
        wayland.seat?.startupFinished()
    }

    /// A decoded card that is on screen means a new frame; prefetched neighbours do not.
    private func watchStore() throws {
        let store = renderer.store
        guard store.readyFD >= 0 else { return }
        try loop.add(fd: store.readyFD, name: "cards decoded") { [unowned self] in
            let update = store.drainReady()
            let visible = Set(daemon.engine.layout().cards.map(\.index))
            Log.debug("cards decoded \(update.ready), failed \(update.failed); on screen \(visible.sorted())")
            if !visible.isDisjoint(with: update.ready + update.failed) { daemon.setNeedsRedraw() }
        }
    }

    /// Input devices are opened once the first frame is on screen, and on a thread of their
    /// own: libinput opens every device of the seat (seconds on a slow box), and the carousel
    /// keeps moving meanwhile. The context is handed to the loop, which alone uses it after.
    private func openInput() {
        let settings = Self.inputSettings(live.current.shell, rotation: displayRotation)
        let screen = display.size ?? daemon.engine.viewport
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
            opening.start { Result { try InputSource(settings: settings, screen: screen) } }
        } catch {
            Log.warning("opening input devices: \(error); running without touch, keyboard and pointer")
        }
    }

    /// Feeds input to the engine; which fingers are down is the engine's recogniser's business.
    private func watch(_ source: InputSource) {
        input = source
        // The screen or the config may have changed while the devices were being opened.
        reconfigureInput(live.current.shell)
        do {
            try loop.add(fd: source.fd, name: "libinput") { [unowned self] in
                for (_, action) in source.dispatch() { daemon.updateEngine { $0.apply(action) } }
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
            daemon.wake()
        case SIGUSR1:
            // For soak tests and operators: what months of running would show first. The
            // longest gaps are since the previous SIGUSR1.
            let gap = loop.takeLongestAnimatingGap(), pingGap = watchdog.takeLongestGap()
            Log.notice("stats: frames \(daemon.framesPresented), wakeups \(loop.wakeups), "
                       + formatted("longest loop gap while animating %.1f ms, ", gap * 1000)
                       + "watchdog pings \(watchdog.pings)"
                       + (watchdog.interval.map { formatted(" every %.2f s, longest gap %.2f s", $0, pingGap) } ?? "")
                       + (display.statistics.map { ", " + $0 } ?? ""))
        default:
            Log.info("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): giving the screen back and exiting")
            notifier.stopping()
            daemon.stop()
            display.restore()
            loop.stop()
        }
    }

    /// Touch is turned like the picture on the panel: with the display's rotation, not the config's.
    private static func inputSettings(_ shell: ShellSettings, rotation: Int) -> ShellSettings {
        var settings = shell
        settings.rotation = rotation
        return settings
    }

    /// New settings or a new screen size for whichever input there is: libinput's devices, or
    /// the Wayland seat (which leaves rotation to the compositor).
    private func reconfigureInput(_ shell: ShellSettings, screen: Size? = nil) {
        let screen = screen ?? display.size ?? daemon.engine.viewport
        input?.reconfigure(settings: Self.inputSettings(shell, rotation: displayRotation), screen: screen)
        wayland?.seat?.reconfigure(settings: shell, screen: screen)
    }

}

/// Step 5 of the reload (`LiveConfig`): the new config goes into the engine, a new image store
/// and the input, while the strip rests.
extension DaemonRunner: ReloadTarget {
    var isMoving: Bool { daemon.engine.isMoving }
    var selectedIndex: Int { daemon.engine.selectedIndex }

    func swapIn(_ loaded: LoadedConfig, keepIndex: Int?, now: Double) {
        if options.outputSettings(loaded.shell) != outputSettings {
            Log.notice("output, mode, rotation and force_legacy changes take effect when carouseld restarts")
        }
        daemon.modifyEngine {
            $0.reconfigure(loaded.config, itemCount: loaded.playlist.count, itemDurations: loaded.itemDurations,
                           keepIndex: keepIndex, now: now)
        }
        loop.remove(fd: renderer.store.readyFD)
        renderer = Self.makeRenderer(loaded, viewport: display.size ?? daemon.engine.viewport, replacing: renderer.store)
        reconfigureInput(loaded.shell)
        daemon.replaceRenderers([renderer])
        do { try watchStore() } catch { Log.error("watching the image store: \(error)") }
    }
}
