import CarouselConfig
import CarouselCore
import Glibc
import CarouselEngine
import CarouselPixels

/// The screen the daemon draws on, kept through driver changes, so the daemon never has to
/// restart for them:
/// - no display device at start (the GPU driver loads late): it waits for udev's add event;
/// - a firmware framebuffer (simpledrm, /dev/fb0) at start: it moves to the real KMS card
///   once that appears;
/// - the device in use is removed: it waits for another one.
/// Everything else is the current output's: it reports its events straight to the carousel.
/// udev's events come from the process's one monitor (`DeviceManager`).
package final class DisplaySupervisor: DisplayOutput {
    package var ladder = FrameLadder()
    private let settings: OutputSettings
    private let backend: DisplayBackend
    private let devices: DeviceManager
    package private(set) var current: DisplayOutput?
    private weak var loop: EventLoop?
    /// The carousel's handler, handed to each output in turn.
    private var events: ((OutputEvent) -> Void)?
    /// Where this supervisor says that the device changed (the same handler).
    private var changes: OutputEventSink?

    /// Opens the display if there is one. Only a missing device is waited for; every other
    /// failure (permissions, another DRM master, an unknown connector) is thrown.
    package init(settings: OutputSettings, backend: DisplayBackend, devices: DeviceManager) throws(DisplayError) {
        self.settings = settings
        self.backend = backend
        self.devices = devices
        do {
            current = try DisplayOpener.open(settings, backend: backend, devices: devices)
        } catch {
            guard case .noDevice = error else { throw error }
            Log.notice("no display yet: \(error); waiting for one")
        }
    }

    package var summary: String { current?.summary ?? "waiting for a display device" }
    package var size: Size? { current?.size }
    package var isReady: Bool { current?.isReady ?? false }
    package var lastFrame: PixelBuffer? { current?.lastFrame }
    package var refreshInterval: Double { current?.refreshInterval ?? 1.0 / 60 }
    package var devicePath: String { current?.devicePath ?? "" }
    package var connectorID: UInt32? { current?.connectorID }
    package var connectorName: String? { current?.connectorName }
    package var isFirmwareFramebuffer: Bool { current?.isFirmwareFramebuffer ?? false }
    package var statistics: String? { current?.statistics }

    package func attach(to loop: EventLoop, events: @escaping (OutputEvent) -> Void) throws {
        self.loop = loop
        self.events = events
        changes = OutputEventSink(loop: loop, handler: events)
        if let current { try use(current) }
        try devices.listen(self, on: loop)
        // A device that udev finished between the first try and the monitor's start sent its
        // event to nobody: look once more now that nothing can be missed.
        if current == nil { devicesChanged([UdevMonitor.Event(action: "add", devnode: nil)]) }
    }

    package func detach() {
        current?.detach()
        devices.stopListening(self)
    }

    package func connectorsChanged() { current?.connectorsChanged() }

    package func acquire() throws(DisplayError) -> PixelBuffer {
        guard let current else { throw .noDevice("no display device") }
        return try current.acquire()
    }

    package func acquireWide(width: Int, height: Int) throws(DisplayError) -> PixelBuffer? {
        guard let current else { throw .noDevice("no display device") }
        return try current.acquireWide(width: width, height: height)
    }

    package func commit(_ state: FrameState, _ mode: CommitMode) throws(DisplayError) -> CommitResult {
        guard let current else { throw .noDevice("no display device") }
        return try current.commit(state, mode)
    }

    package func startWriteback(frames: Int, directory: Int32) throws(DisplayError) -> String {
        guard let current else { close(directory); throw .noDevice("no display device") }
        return try current.startWriteback(frames: frames, directory: directory)
    }

    package func restore() {
        events = nil
        changes = nil
        current?.restore()
    }

    // MARK: -

    private func use(_ output: DisplayOutput) throws {
        if let loop, let events { try output.attach(to: loop, events: events) }
    }

    /// The device changed under the carousel: said as the outputs say it, from the loop.
    private func announceChange() {
        changes?.emit(.changed)
    }

    /// udev's events, from the loop: a device added or removed is this supervisor's (it opens,
    /// replaces or drops its output); a card's connectors changing is the output's.
    func devicesChanged(_ events: [UdevMonitor.Event]) {
        let before = current
        devicesAddedOrRemoved(events.filter { $0.action == "add" || $0.action == "remove" })
        // An output opened just now has read its connectors already.
        if let current, current === before,
           events.contains(where: { $0.subsystem == "drm" && ($0.hotplug || $0.action == "change" || $0.action == "add") }) {
            current.connectorsChanged()
        }
    }

    private func devicesAddedOrRemoved(_ events: [UdevMonitor.Event]) {
        guard !events.isEmpty else { return }
        if let old = current, events.contains(where: { $0.action == "remove" && $0.devnode == old.devicePath }) {
            Log.notice("\(old.devicePath) was removed; waiting for a display device")
            old.detach()
            current = nil
            announceChange()
        }
        guard current == nil || current?.isFirmwareFramebuffer == true,
              events.contains(where: { $0.action == "add" }) else { return }
        let replacing = current
        do {
            let output = try DisplayOpener.open(settings, backend: backend, realOnly: replacing != nil, devices: devices)
            if let replacing {
                Log.notice("moving from the firmware framebuffer \(replacing.devicePath) to \(output.devicePath)")
                replacing.detach()
                replacing.restore()
            }
            current = output
            try use(output)
            announceChange()
        } catch let error as DisplayError {
            if case .noDevice = error { return }  // not a display we can use yet
            // Looked at before udev's own event: the node may exist while udev has not yet given
            // it to group video (early boot). udev's event, after its rules, comes next; a
            // refusal then is real.
            if case .permissionDenied = error, events.allSatisfy({ $0.devnode == nil }) {
                Log.info("display device appeared before udev gave it access (\(error)); waiting for udev's event")
                return
            }
            Log.error("display device appeared, but: \(error)")
        } catch {
            Log.error("watching \(current?.devicePath ?? "the new display"): \(error)")
        }
    }
}
