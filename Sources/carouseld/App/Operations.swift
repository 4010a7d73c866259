import CarouselBackends
import CarouselConfig
import CarouselCore
import Glibc

/// The operator's side of the daemon: the screen power schedule, dayparting, `ctl pause`, and
/// the control socket's requests. Everything it changes is told to the one status publisher.
final class Operations: OperationsState {
    private let carousels: Carousels
    private let publisher: StatusPublisher
    private let live: LiveConfig
    let power: PowerController
    private let dayparts: DaypartController
    private var control: ControlServer?
    private let screenshots: Screenshots
    /// `ctl pause` holds every carousel's auto-advance.
    private(set) var isPaused = false
    /// Carries out `ctl reload`.
    weak var reload: ReloadCoordinator?

    init(carousels: Carousels, outputs: [DisplayOutput], screenNames: [String?], live: LiveConfig,
         publisher: StatusPublisher, loop: EventLoop, controlPath: String?) throws {
        self.carousels = carousels; self.publisher = publisher; self.live = live
        screenshots = Screenshots(outputs: outputs, names: screenNames)
        let shell = live.current.shell
        let tv = Self.tvLink(shell.schedule.tv.cec, outputs: outputs, loop: loop)
        let screens = ScreenSwitch(displays: carousels.groups.map(\.daemon), tv: tv, delays: (shell.schedule.tv.offDelay, shell.schedule.tv.onDelay), loop: loop)
        power = PowerController(shell: shell, screens: screens, displays: outputs, screenNames: screenNames,
                                    clock: carousels.clock, loop: loop)
        tv?.onPowerChange = { [unowned publisher] _ in publisher.publish() }
        dayparts = DaypartController(loaded: live.current, clock: carousels.clock, loop: loop)
        carousels.clock.onTrusted = { [unowned self] in clockTrusted() }
        power.onChange = { [unowned self] on in screensChanged(on: on) }
        dayparts.onSwitch = { [unowned self] _, items in switchDaypart(to: items) }
        publisher.operations = self
        if let path = live.current.shell.reporting.metricsFile {
            publisher.metrics = MetricsFile(path: path, loop: loop, status: { [unowned publisher] in publisher.status() })
        }
        if let path = Self.controlPath(controlPath) {
            do {
                let server = try ControlServer(path: path, loop: loop)
                server.answer = { [unowned self] request, uid, file in answer(request, uid: uid, file: file) }
                control = server
                publisher.stateFile = StateFile(path: Self.directory(of: path) + "/state.json")
            } catch {
                Log.warning("control socket \(path): \(error); running without it")
            }
        } else {
            Log.info("no control socket (no $RUNTIME_DIRECTORY, /run/carouseld not writable; --control PATH sets one)")
        }
        updatePause()
        // Started during the off hours: the power's first decision was made before anyone listened.
        carousels.plays.screens(on: power.isOn)
    }

    /// The TV over CEC (`cec`), or nil: CEC off, no adapter, or one that cannot be watched.
    private static func tvLink(_ setting: String, outputs: [DisplayOutput], loop: EventLoop) -> TVLink? {
        guard let adapter = CECAdapterChoice.open(setting, outputs: outputs) else { return nil }
        do {
            return try TVLink(bus: adapter, loop: loop)
        } catch {
            Log.warning("CEC \(adapter.name): \(error); the screen is switched by KMS alone")
            return nil
        }
    }

    // MARK: - OperationsState

    var screen: (on: Bool, reason: String) { power.state }
    var tv: TVPower? { power.screens.tv?.power }
    var daypartFile: String? { dayparts.file }

    /// A reload: the new schedules.
    func configure(_ loaded: LoadedConfig) {
        carousels.clock.configure(mode: loaded.shell.sync.trustClock)
        power.configure(shell: loaded.shell)
        dayparts.configure(loaded)
    }

    /// A touch; true when it woke the screen (the touch then does nothing else).
    func touchWakesScreen() -> Bool { power.touched() }

    /// Every carousel's auto-advance is held while paused by ctl, while the screens sleep, and
    /// while the wall clock drives it.
    func updatePause() {
        let now = carousels.time.now()
        for (index, group) in carousels.groups.enumerated() {
            let paused = isPaused || !power.isOn || carousels.sync(of: index)?.followsClock == true
            if group.daemon.engine.isPaused != paused { group.daemon.modifyEngine { $0.setPaused(paused, now: now) } }
        }
    }

    /// The wall clock is synchronised: the screen schedule, the daypart and the syncs apply
    /// from now, as after a clock step.
    private func clockTrusted() {
        power.clockTrusted()
        dayparts.clockTrusted()
        for sync in carousels.syncs { sync.clockTrusted() }
        updatePause()
        publisher.publish()
    }

    private func screensChanged(on: Bool) {
        carousels.plays.screens(on: on)
        updatePause()
        if on { for group in carousels.groups { group.daemon.setNeedsRedraw() } }
        publisher.publish()
    }

    /// The carousels that show the main playlist page to the daypart's.
    private func switchDaypart(to items: [PlaylistItem]) {
        let now = carousels.time.now()
        for (index, group) in carousels.groups.enumerated() where group.plan.playlistOutput == nil {
            if let sync = carousels.sync(of: index) {
                // A synced carousel follows the clock in the new playlist (a cut if far).
                group.swapIn(config: group.config, shell: group.shell, items: items, keepIndex: nil, now: now, cause: .daypart)
                sync.configure(shell: live.current.shell)
            } else {
                group.switchPlaylist(to: items, now: now)
            }
        }
        publisher.publish()
    }

    // MARK: - control socket

    /// `--control`, else systemd's RuntimeDirectory=, else /run/carouseld when it can be written.
    static func controlPath(_ option: String?) -> String? {
        if let option { return option }
        if let runtime = getenv("RUNTIME_DIRECTORY").map({ String(cString: $0) }), !runtime.isEmpty {
            // Several directories are separated by ':'; the first is ours.
            return String(runtime.split(separator: ":").first ?? Substring(runtime)) + "/control"
        }
        return access("/run/carouseld", W_OK) == 0 ? "/run/carouseld/control" : nil
    }

    /// "/run/carouseld" of "/run/carouseld/control".
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Does what a control request asks, on every carousel.
    func answer(_ request: ControlRequest, uid: UInt32, file: Int32? = nil) -> ControlReply {
        let now = carousels.time.now()
        if request != .status { Log.info("control: \(request) (uid \(uid))") }
        let groups = carousels.groups
        switch request {
        case .status:
            return ControlReply(ok: true, status: publisher.status())
        case .next, .prev:
            for (index, group) in groups.enumerated() {
                carousels.touched(index, now: now)
                group.daemon.updateEngine(cause: .ctl) { $0.page(by: request == .next ? 1 : -1, now: now) }
            }
            publisher.publish()
            return .done(groups[0].showing)
        case .goto(let target):
            return go(to: target, now: now)
        case .pause, .resume:
            isPaused = request == .pause
            updatePause()
            publisher.publish()
            return .done()
        case .reload:
            reload?.requestReload()
            return .done()
        case .screen(let mode):
            power.set(mode)
            publisher.publish()
            return .done("screen \(power.isOn ? "on" : "off")")
        case .screenshot(let shot):
            return screenshots.take(shot, into: file)
        case .writeback(let frames):
            return screenshots.writeback(frames: frames, into: file)
        }
    }

    private func go(to target: ControlRequest.Target, now: Double) -> ControlReply {
        var moved = false
        for (index, group) in carousels.groups.enumerated() {
            let found: Int?
            switch target {
            case .number(let n): found = n <= group.items.count ? n - 1 : nil
            case .name(let name): found = group.items.firstIndex { $0.name == name || $0.path.hasSuffix("/" + name) }
            }
            guard let found else { continue }
            carousels.touched(index, now: now)
            group.daemon.updateEngine(cause: .ctl) { $0.show(item: found, animated: true, now: now) }
            moved = true
        }
        guard moved else {
            switch target {
            case .number(let n): return .failure("goto \(n): the playlist has \(carousels.groups[0].items.count) pictures")
            case .name(let name): return .failure("goto \(name): no picture of that name in the playlist")
            }
        }
        publisher.publish()
        return .done(carousels.groups[0].showing)
    }
}
