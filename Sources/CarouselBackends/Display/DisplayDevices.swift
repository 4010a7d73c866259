import CarouselCore

/// The display devices of the process, as plymouth's device manager keeps them: the one udev
/// monitor for drm and graphics (fbdev) devices, and the cards opened as DRM master. Each
/// screen's supervisor hears every event once: it opens, replaces or drops its output on "add"
/// and "remove", and hands a card's connector change to the output on it.
///
/// One owner, the kernel backend; only the event loop's thread opens displays.
package final class DisplayDevices {
    /// nil when udev's monitor could not be had (no udev in a container): said once, and the
    /// screens then keep what they found at start.
    private let monitor: UdevMonitor?
    private var watch: Watch?
    private var listeners: [Weak<DisplaySupervisor>] = []
    /// Cards opened as master, shared by every screen on them: a second open of a card cannot
    /// become DRM master while the first is open. Held weakly: a card closes with its last screen.
    private var cards: [String: Weak<DrmCard>] = [:]

    package init() {
        monitor = UdevMonitor(subsystems: ["drm", "graphics"])
        if monitor == nil {
            Log.warning("udev monitor unavailable: a display driver that loads later, or a screen plugged in later, will not be noticed")
        }
    }

    /// The open master card at `path`, or a newly opened one.
    package func card(path: String) throws(DisplayError) -> DrmCard {
        if let card = cards[path]?.value { return card }
        let card = try DrmCard(path: path)
        cards[path] = Weak(card)
        return card
    }

    /// `supervisor` hears the devices' events from now on, from the loop, for as long as it lives.
    func listen(_ supervisor: DisplaySupervisor, on loop: EventLoop) throws {
        listeners = listeners.filter { $0.value != nil && $0.value !== supervisor } + [Weak(supervisor)]
        guard watch == nil, let monitor else { return }
        watch = try loop.watch(monitor.fd, name: "udev display devices", owner: self) { owner in
            let events = monitor.drain()
            guard !events.isEmpty else { return }
            for listener in owner.listeners.compactMap(\.value) { listener.devicesChanged(events) }
        }
    }

    /// `supervisor` no longer hears them; the monitor stays open for the others.
    func stopListening(_ supervisor: DisplaySupervisor) {
        listeners.removeAll { $0.value == nil || $0.value === supervisor }
    }
}
