import CarouselCore

/// The devices of the process, as plymouth's device manager keeps them: the one udev monitor,
/// for drm and graphics (fbdev) devices and for input, and the cards opened as DRM master. Each
/// screen's supervisor hears every display event once: it opens, replaces or drops its output on
/// "add" and "remove", and hands a card's connector change to the output on it. The input hears
/// the input devices' events: libinput's path backend adds and removes them (libinput's udev
/// backend would open a second monitor).
///
/// One owner, the kernel backend; only the event loop's thread opens devices.
package final class DeviceManager {
    /// nil when udev's monitor could not be had (no udev in a container): said once, and the
    /// screens and input then keep what they found at start.
    private let monitor: UdevMonitor?
    private var watch: Watch?
    private var listeners: [Weak<DisplaySupervisor>] = []
    /// The input's handler for its devices' events, holding its owner weakly.
    private var inputListener: (([UdevMonitor.Event]) -> Void)?
    /// Cards opened as master, shared by every screen on them: a second open of a card cannot
    /// become DRM master while the first is open. Held weakly: a card closes with its last screen.
    private var cards: [String: Weak<DrmCard>] = [:]

    package init() {
        monitor = UdevMonitor(subsystems: ["drm", "graphics", "input"])
        if monitor == nil {
            Log.warning("udev monitor unavailable: a display driver that loads later, a screen or an input device plugged in later, will not be noticed")
        }
    }

    /// The open master card at `path`, or a newly opened one.
    package func card(path: String) throws(DisplayError) -> DrmCard {
        if let card = cards[path]?.value { return card }
        let card = try DrmCard(path: path)
        cards[path] = Weak(card)
        return card
    }

    /// `supervisor` hears the display devices' events from now on, from the loop, for as long as
    /// it lives.
    func listen(_ supervisor: DisplaySupervisor, on loop: EventLoop) throws {
        listeners = listeners.filter { $0.value != nil && $0.value !== supervisor } + [Weak(supervisor)]
        try watchMonitor(on: loop)
    }

    /// `supervisor` no longer hears them; the monitor stays open for the others.
    func stopListening(_ supervisor: DisplaySupervisor) {
        listeners.removeAll { $0.value == nil || $0.value === supervisor }
    }

    /// `owner` hears the input devices' events from now on, from the loop, while it lives.
    package func listenForInput<Owner: AnyObject>(_ owner: Owner, on loop: EventLoop,
                                                  _ handler: @escaping (Owner, [UdevMonitor.Event]) -> Void) throws {
        inputListener = { [weak owner] events in if let owner { handler(owner, events) } }
        try watchMonitor(on: loop)
    }

    private func watchMonitor(on loop: EventLoop) throws {
        guard watch == nil, let monitor else { return }
        watch = try loop.watch(monitor.fd, name: "udev devices", owner: self) { owner in
            let events = monitor.drain()
            let input = events.filter { $0.subsystem == "input" }
            let display = events.filter { $0.subsystem != "input" }
            if !display.isEmpty { for listener in owner.listeners.compactMap(\.value) { listener.devicesChanged(display) } }
            if !input.isEmpty { owner.inputListener?(input) }
        }
    }
}
