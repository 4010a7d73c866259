import CarouselBackends
import CarouselConfig
import CarouselCore
import Glibc

/// The operator's side of the daemon: the screen power schedule, dayparting, `ctl pause`, and
/// the control socket's requests. What it changes is told as `AppEvent`s (the status changed,
/// a reload asked); what its schedules decide arrives back from the root (`DaemonRunner+Events`).
final class Operations: OperationsState {
    private let carousels: Carousels
    private let events: AppEvents
    private let live: LiveConfig
    let power: PowerController
    private let dayparts: DaypartController
    private let screenshots: Screenshots
    /// `ctl pause` holds every carousel's auto-advance.
    private(set) var isPaused = false

    init(carousels: Carousels, outputs: [DisplayOutput], screenNames: [String?], live: LiveConfig,
         events: AppEvents, loop: EventLoop) {
        self.carousels = carousels; self.events = events; self.live = live
        screenshots = Screenshots(outputs: outputs, names: screenNames)
        let shell = live.current.shell
        let tv = Self.tvLink(shell.schedule.tv.cec, outputs: outputs, loop: loop, events: events)
        let screens = ScreenSwitch(displays: carousels.all, tv: tv, delays: (shell.schedule.tv.offDelay, shell.schedule.tv.onDelay), loop: loop)
        power = PowerController(shell: shell, screens: screens, displays: outputs, screenNames: screenNames,
                                clock: carousels.clock, loop: loop) { on in events.emit(.screensSwitched(on: on)) }
        dayparts = DaypartController(loaded: live.current, clock: carousels.clock, loop: loop) { _, items in
            events.emit(.daypart(items: items))
        }
        updatePause()
        // Started during the off hours: the power's first decision was made before anyone listened.
        carousels.plays.screens(on: power.isOn)
    }

    /// The TV over CEC (`cec`), or nil: CEC off, no adapter, or one that cannot be watched.
    private static func tvLink(_ setting: String, outputs: [DisplayOutput], loop: EventLoop, events: AppEvents) -> TVLink? {
        guard let adapter = CECAdapterChoice.open(setting, outputs: outputs) else { return nil }
        do {
            return try TVLink(bus: adapter, loop: loop) { events.emit(.tvPower($0)) }
        } catch {
            Log.warning("CEC \(adapter.name): \(error); the screen is switched by KMS alone")
            return nil
        }
    }

    // MARK: - OperationsState

    var screen: (on: Bool, reason: String) { power.state }
    var screenScheduledOn: Bool { power.scheduledOn }
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
        for (index, carousel) in carousels.all.enumerated() {
            let paused = isPaused || !power.isOn || carousels.sync(of: index)?.followsClock == true
            if carousel.engine.isPaused != paused { carousel.modifyEngine { $0.setPaused(paused, now: now) } }
        }
    }

    /// The wall clock is synchronised: the screen schedule, the daypart and the syncs apply
    /// from now, as after a clock step.
    func clockTrusted() {
        power.clockTrusted()
        dayparts.clockTrusted()
        for sync in carousels.syncs { sync.clockTrusted() }
        updatePause()
    }

    func screensSwitched(on: Bool) {
        carousels.plays.screens(on: on)
        updatePause()
        if on { for carousel in carousels.all { carousel.setNeedsRedraw() } }
    }

    /// The carousels that show the main playlist page to the daypart's.
    func switchDaypart(to items: [PlaylistItem]) {
        let now = carousels.time.now()
        for (index, carousel) in carousels.all.enumerated() where carousel.plan.playlistOutput == nil {
            if let sync = carousels.sync(of: index) {
                // A synced carousel follows the clock in the new playlist (a cut if far).
                carousel.swapIn(config: carousel.config, shell: carousel.shell, items: items, keepIndex: nil, now: now, cause: .daypart)
                sync.configure(shell: live.current.shell)
            } else {
                carousel.switchPlaylist(to: items, now: now)
            }
        }
    }

    // MARK: - control socket

    /// `--control`, else systemd's RuntimeDirectory=, else /run/carouseld when it can be written.
    static func controlPath(_ option: String?) -> String? {
        if let option { return option }
        if let runtime = UnitDirectory.first("RUNTIME_DIRECTORY") { return runtime + "/control" }
        return access("/run/carouseld", W_OK) == 0 ? "/run/carouseld/control" : nil
    }

    /// "/run/carouseld" of "/run/carouseld/control".
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Does what a control request asks, on every carousel (`ctl status` is the publisher's).
    func answer(_ request: ControlRequest, uid: UInt32, file: Int32? = nil) -> ControlReply {
        let now = carousels.time.now()
        Log.info("control: \(request) (uid \(uid))")
        let all = carousels.all
        switch request {
        case .status:
            return .failure("ctl status is answered with the publisher's status")
        case .next, .prev:
            for (index, carousel) in all.enumerated() {
                carousels.touched(index, now: now)
                carousel.updateEngine(cause: .ctl) { $0.page(by: request == .next ? 1 : -1, now: now) }
            }
            events.emit(.statusChanged)
            return .done(all[0].showing)
        case .goto(let target):
            return go(to: target, now: now)
        case .pause, .resume:
            isPaused = request == .pause
            updatePause()
            events.emit(.statusChanged)
            return .done()
        case .reload:
            events.emit(.reloadAsked)
            return .done()
        case .screen(let mode):
            power.set(mode)
            events.emit(.statusChanged)
            return .done("screen \(power.isOn ? "on" : "off")")
        case .screenshot(let shot):
            return screenshots.take(shot, into: file)
        case .writeback(let frames):
            return screenshots.writeback(frames: frames, into: file)
        }
    }

    private func go(to target: ControlRequest.Target, now: Double) -> ControlReply {
        var moved = false
        for (index, carousel) in carousels.all.enumerated() {
            let found: Int?
            switch target {
            case .number(let n): found = n <= carousel.items.count ? n - 1 : nil
            case .name(let name): found = carousel.items.firstIndex { $0.name == name || $0.path.hasSuffix("/" + name) }
            }
            guard let found else { continue }
            carousels.touched(index, now: now)
            carousel.updateEngine(cause: .ctl) { $0.show(item: found, animated: true, now: now) }
            moved = true
        }
        guard moved else {
            switch target {
            case .number(let n): return .failure("goto \(n): the playlist has \(carousels.lead.items.count) pictures")
            case .name(let name): return .failure("goto \(name): no picture of that name in the playlist")
            }
        }
        events.emit(.statusChanged)
        return .done(carousels.lead.showing)
    }
}
