import CarouselBackends
import CarouselConfig
import CarouselCore
/// Sleeps and wakes the screens by the `[[screen]]` schedule, `ctl screen on|off|auto` and
/// touch (`ScreenPower`), on a wall-clock timer of the loop that also fires when the clock is set.
/// Asleep, a KMS screen's CRTC is inactive (no signal: the monitor goes to standby), not a
/// black picture, and nothing is composed.
final class PowerController {
    private(set) var power: ScreenPower
    private var timer: WallClockTimer?
    /// The CRTCs and backlights, and the TV over CEC, in the order a TV needs (`ScreenSwitch`).
    let screens: ScreenSwitch
    private let clock: ClockTrust
    /// (card, connector) of each screen, for `backlight = "auto"`.
    private let connectors: [(card: String, connector: String)]
    private var backlightSetting: String?
    private(set) var isOn = true
    /// Called after the screens went to sleep or woke (status, state file, redraw).
    private let changed: (_ on: Bool) -> Void

    init(shell: ShellSettings, screens: ScreenSwitch, displays: [DisplayOutput], screenNames: [String?], clock: ClockTrust,
         loop: EventLoop, changed: @escaping (_ on: Bool) -> Void = { _ in }) {
        self.changed = changed
        power = ScreenPower(schedule: shell.schedule.screens, wakeMinutes: shell.schedule.wakeMinutes)
        self.screens = screens
        self.clock = clock
        connectors = zip(displays, screenNames).compactMap { display, name in
            name.map { (display.devicePath.split(separator: "/").last.map(String.init) ?? "", $0) }
        }
        timer = loop.wallClockTimer("screen schedule", owner: self) { owner, _ in
            // A set clock may be NTP's first setting of it: ask whether it is believed now.
            owner.clock.check(); owner.apply()
        }
        configureBacklight(shell.schedule.backlight)
        apply()
        // Lit from the start: the TV may still be in standby since the last stop (dark from the
        // start, apply() has sent it <Standby>).
        if isOn { screens.wakeTV() }
    }

    /// A reload: the new schedule; an override or a wake in force stays.
    func configure(shell: ShellSettings) {
        power.schedule = shell.schedule.screens
        power.wakeMinutes = shell.schedule.wakeMinutes
        configureBacklight(shell.schedule.backlight)
        screens.configure(delays: (shell.schedule.tv.offDelay, shell.schedule.tv.onDelay))
        apply()
    }

    func set(_ mode: ScreenPower.Override) {
        power.set(mode, at: WallClock.now())
        apply()
    }

    /// A touch; true when it woke the screen (the touch then does nothing else).
    func touched() -> Bool {
        let now = WallClock.now()
        // Every touch frame comes this way: on a lit screen no touch woke, it changes nothing,
        // and the schedule's next change need not be looked for again.
        guard !power.isOn(at: now) || power.wokenUntil != nil else { return false }
        let woke = power.touched(at: now)
        apply()
        return woke
    }

    /// The clock became synchronised: the schedule applies from now.
    func clockTrusted() { apply() }

    /// "on" or "off", and why.
    var state: (on: Bool, reason: String) { power.state(at: WallClock.now()) }

    /// What the `[[screen]]` schedule alone says now (on without one, or while the clock is not
    /// believed): a screen off while this is true was turned off by hand or failed to light.
    var scheduledOn: Bool { !power.clockTrusted || power.scheduledOn(at: WallClock.now()) }

    private func configureBacklight(_ setting: String) {
        guard setting != backlightSetting else { return }
        let backlights = Backlight.resolve(setting, connectors: connectors)
        backlightSetting = setting
        if !backlights.isEmpty { Log.info("backlight: \(backlights.map(\.name).joined(separator: ", ")) switched with the screen") }
        screens.use(backlights: backlights)
    }

    private func apply() {
        power.clockTrusted = clock.isTrusted
        let now = WallClock.now()
        let state = power.state(at: now)
        if state.on != isOn {
            isOn = state.on
            Log.notice("screen \(state.on ? "on" : "off") (\(state.reason))")
            screens.turn(on: state.on)
            changed(state.on)
        }
        // A far-off change still gets a timer: a day at most, then it looks again.
        let next = power.nextChange(after: now) ?? now + 86_400
        timer?.schedule(at: min(next, now + 86_400))
    }
}
