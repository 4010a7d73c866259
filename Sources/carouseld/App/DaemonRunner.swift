import ArgumentParser
import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels
import Glibc

/// The composition root: puts the daemon together and runs it. The config, the backend (screens
/// and input), one carousel per independent screen, the operations, the status publisher, the
/// input router, the reload, the control socket and the watchdog are made here, in order, each
/// given what it needs at once; nothing is set on a part after it is made. What the parts have
/// to say comes back as `AppEvent`s, handed out in one place (`DaemonRunner+Events.swift`).
final class DaemonRunner {
    let loop: EventLoop
    let events: AppEvents
    let live: LiveConfig
    let backend: Backend
    let carousels: Carousels
    let operations: Operations
    let publisher: StatusPublisher
    let router: InputRouter
    let reload: ReloadCoordinator
    let watchdog: Watchdog
    private let signals: SignalSource
    private var signalWatch: Watch?
    private var control: ControlServer?
    var startup: StartupTimeline

    /// `openBackend`: how the screens and input are had (tests give a fake one).
    init(_ options: DaemonOptions, loop: EventLoop? = nil,
         openBackend: (ShellSettings, CarouselConfig, EventLoop) throws(DisplayError) -> Backend = Backends.open) throws {
        var startup = StartupTimeline()
        let notifier = Notifier()
        // Blocked before any thread starts (the decode worker), so every thread inherits the mask.
        signals = try SignalSource(signals: [SIGTERM, SIGINT, SIGHUP, SIGUSR1])
        let loop = try loop ?? EventLoop()
        let stalls = StallMeter(time: loop.time)   // told by the carousels when they animate
        loop.observer = stalls
        let events = AppEvents(loop: loop)
        self.loop = loop; self.events = events
        live = try LiveConfig.first(options.configDirectory, notifier: notifier, loop: loop, events: events)
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
        let clock = ClockTrust(mode: loaded.shell.sync.trustClock, loop: loop, trusted: { events.emit(.clockTrusted) })
        carousels = try Carousels(backend, loaded: loaded, options: options, clock: clock, loop: loop, events: events)
        startup.reached("carousels made")
        self.startup = startup
        operations = Operations(carousels: carousels, outputs: backend.outputs,
                                screenNames: backend.plan.screens.map(\.connector), live: live, events: events, loop: loop)
        let controlPath = Operations.controlPath(options.controlPath)
        publisher = StatusPublisher(notifier: notifier, live: live, carousels: carousels, operations: operations,
                                    stateFile: controlPath.map { StateFile(path: Operations.directory(of: $0) + "/state.json") },
                                    loop: loop, stalls: stalls)
        router = InputRouter(carousels: carousels, backend: backend, operations: operations, loop: loop)
        reload = try ReloadCoordinator(live: live, options: options, backend: backend, carousels: carousels,
                                       operations: operations, router: router, publisher: publisher, events: events, loop: loop)
        watchdog = Watchdog(notifier: notifier, loop: loop)
        try connect(loop: loop, controlPath: controlPath)
        self.startup.reached("parts made")
    }

    /// A control request: `ctl status` is the publisher's, the rest the operations'.
    func answer(_ request: ControlRequest, uid: UInt32, file: Int32?) -> ControlReply {
        request == .status ? ControlReply(ok: true, status: publisher.status())
            : operations.answer(request, uid: uid, file: file)
    }

    /// The control socket at `path`, answered by `answer`, or nil without one.
    private func openControl(_ path: String?, loop: EventLoop) -> ControlServer? {
        guard let path else {
            Log.info("no control socket (no $RUNTIME_DIRECTORY, /run/carouseld not writable; --control PATH sets one)")
            return nil
        }
        do {
            return try ControlServer(path: path, loop: loop) { [unowned self] in answer($0, uid: $1, file: $2) }
        } catch {
            Log.warning("control socket \(path): \(error); running without it")
            return nil
        }
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

    /// The last step of putting it together: the control socket, the signals, and the events
    /// of every part from now on.
    private func connect(loop: EventLoop, controlPath: String?) throws {
        control = openControl(controlPath, loop: loop)
        signalWatch = try loop.watch(signals.fd, name: "signals", owner: self) { owner in
            for signal in owner.signals.drain() { owner.handle(signal: signal) }
        }
        events.deliver { [unowned self] in handle($0) }
        if !operations.power.isOn {
            // Started during the screen's off hours: nothing will be drawn, yet the daemon is up,
            // and a touch must be able to wake the screen.
            loop.post(to: self) { runner in
                Log.info("started with the screen off (\(runner.operations.power.state.reason)); a touch wakes it")
                runner.publisher.notifier.ready()
                runner.publisher.publish()
                runner.router.start(runner.live.current.shell)
            }
        }
    }

    /// Shows the first frame and runs until SIGTERM or SIGINT.
    func run() throws {
        start()
        try loop.run()
        Log.info("exited after \(carousels.framesPresented) frames and \(loop.wakeups) wakeups")
    }

    /// Shows the first frame; the loop's turns do the rest (`run`, or a test's). The status
    /// (STATUS=, state.json, metrics) is first published with the first frame (`started`), not
    /// before it: the JSON encoder's first use alone was a tenth of main -> first frame's
    /// instructions. With no frame to wait for, it is published now.
    func start() {
        for carousel in carousels.all { carousel.start() }
        if backend.outputs.allSatisfy({ $0.size == nil }) {
            // Started, but nothing to show on yet: systemd must not time the start out (the
            // display may take any time), and `systemctl status` says what is awaited.
            publisher.notifier.ready()
            publisher.publish()
            publisher.notifier.status("waiting for a display: \(backend.outputs.map(\.summary).joined(separator: "; "))")
        }
    }

    func handle(signal: Int32) {
        switch signal {
        case SIGHUP:
            Log.info("SIGHUP: reloading \(live.current.directory)")
            reload.requestReload()
        case SIGUSR1:
            Log.notice(publisher.statistics(loop: loop, watchdog: watchdog, outputs: backend.outputs))
        default:
            stop(reason: signal == SIGTERM ? "SIGTERM" : "SIGINT")
        }
    }

    /// Gives the screens back and ends `run()`.
    func stop(reason: String) {
        Log.info("\(reason): giving the screen back and exiting")
        publisher.notifier.stopping()
        publisher.metrics?.remove()
        carousels.plays.stop()
        for carousel in carousels.all { carousel.stop() }
        operations.power.screens.stop()
        for output in backend.outputs { output.restore() }
        loop.stop()
    }
}
