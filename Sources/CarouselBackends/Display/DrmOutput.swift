import CarouselCore
import CDRM
import CarouselEngine
import CarouselPixels
import Glibc

/// A DRM/KMS screen: picks connector and mode, lights it with the first frame, flips
/// buffers, follows hotplug, and puts the previous CRTC back on exit.
///
/// Buffer states: `current` is scanned out, `pending` is queued for the next vblank (at most
/// one: a second flip is never queued), every other buffer is free to draw into.
package final class DrmOutput: DisplayOutput {
    package let card: DrmCard
    package let settings: OutputSettings
    package private(set) var screen: DrmScreen?
    /// Which buffer is scanned out, and which is queued for the next vblank.
    /// Internal: the plane path (`DrmOutput+Planes`) queues flips too.
    var flips: (current: Int?, pending: Int?) = (nil, nil)
    private var saved: SavedCrtc?
    private var hotplug: UdevMonitor?
    private var hotplugWatch: Watch?
    private(set) weak var loop: EventLoop?
    private var reprobeAfterFlip = false

    package var onPresented: ((Double) -> Void)?
    package var onScreenChanged: (() -> Void)?

    /// Opens the screen the settings ask for. Throws when the named connector does not exist
    /// or does not offer the mode; a connector that is merely unplugged is waited for.
    package init(card: DrmCard, settings: OutputSettings) throws(DisplayError) {
        self.card = card
        self.settings = settings
        try probe()
    }

    package var summary: String {
        guard let screen else { return "\(card.path) (\(card.driverName)): waiting for a connected screen" }
        return "\(card.path) (\(card.driverName)) \(screen.target.connectorName) \(screen.target.mode.label) "
            + "\(screen.committer.kind), \(screen.rotationLabel), \(screen.buffers.count) buffers"
    }

    package var size: Size? { screen?.size }
    package var lastFrame: PixelBuffer? {
        guard let screen, screen.lit, !asleep, let current = flips.current else { return nil }
        let primary = screen.buffers[current].pixelBuffer
        guard !screen.cardsShown.current.isEmpty else { return primary }
        // The primary plane holds only the background and dots: flatten the cards over it.
        screen.snapshot = PlaneFrameSnapshot.flatten(primary: primary, cards: screen.cardsShown.current.map { ($0.placed, $0.buffer.pixelBuffer) })
        return screen.snapshot?.buffer
    }

    package var canPresent: Bool { screen != nil && flips.pending == nil && !asleep }
    /// The screen was put to sleep (`setPower(false)`): its CRTC is inactive.
    package private(set) var asleep = false
    package var refreshInterval: Double {
        guard let refresh = screen?.target.mode.refresh, refresh > 0 else { return 1.0 / 60 }
        return 1.0 / Double(refresh)
    }

    deinit { if let crtc = screen?.target.crtcID { card.release(crtc: crtc) } }

    package var devicePath: String { card.path }
    package var connectorID: UInt32? { screen?.target.connectorID }
    package var connectorName: String? { screen?.target.connectorName }
    package var isFirmwareFramebuffer: Bool { DrmCard.firmwareDrivers.contains(card.driverName) }

    package func detach() {
        hotplugWatch = nil
        if loop != nil { card.detachScreen() }
        loop = nil
        hotplug = nil
        onPresented = nil
        onScreenChanged = nil
    }

    package func attach(to loop: EventLoop) throws {
        self.loop = loop
        try card.attachScreen(to: loop)
        hotplug = UdevMonitor(subsystems: ["drm"])
        if let hotplug {
            hotplugWatch = try loop.watch(hotplug.fd, name: "udev hotplug") { [unowned self] in
                // A card's connectors changed (HOTPLUG=1, "change"), or a driver that just loaded
                // registered its connectors after the card ("add").
                if hotplug.drain().contains(where: { $0.hotplug || $0.action == "change" || $0.action == "add" }) {
                    hotplugged()
                }
            }
        } else {
            Log.warning("udev monitor unavailable: screens plugged in later will not be noticed")
        }
    }

    package func present(_ draw: (PixelBuffer) -> Void) throws(DisplayError) {
        guard let screen, flips.pending == nil else {
            throw .unsupported("present called while \(screen == nil ? "no screen is connected" : "a flip is pending")")
        }
        let index = flips.current.map { ($0 + 1) % screen.buffers.count } ?? 0
        let buffer = screen.buffers[index]
        screen.cardPlanes?.buffers.committed()   // no card on a plane in this frame
        if let rotator = screen.rotator {
            draw(rotator.buffer)
            rotator.copy(into: buffer.pixels, width: buffer.width, height: buffer.height, stride: buffer.stride)
        } else {
            draw(PixelBuffer(base: buffer.pixels, width: buffer.width, height: buffer.height, stride: buffer.stride))
        }
        if screen.lit {
            try screen.committer.flip(screen.target, buffer: buffer)
        } else {
            if saved?.crtcID != screen.target.crtcID {
                saved = SavedCrtc(fd: card.fd, crtcID: screen.target.crtcID, connectorID: screen.target.connectorID)
            }
            let evented = try screen.committer.modeset(screen.target, buffer: buffer, rotation: screen.planeRotation)
            screen.lit = true
            Log.info("showing \(summary)")
            if !evented {
                // Legacy SetCrtc completes on return: report it from the loop, like an event.
                loop?.post { [weak self] in self?.flipCompleted(time: MonotonicClock.now()) }
            }
        }
        flips.pending = index
        screen.cardsShown.pending = []
    }


    package func setPower(_ on: Bool) {
        guard on == asleep else { return }
        asleep = !on
        guard let screen else { return }
        if on {
            // The next frame is a full modeset with ACTIVE = 1 (or SetCrtc): the last picture again.
            screen.lit = false
            Log.info("\(screen.target.connectorName): waking the screen")
            return
        }
        waitForPendingFlip()
        if !screen.lit && saved?.crtcID != screen.target.crtcID {
            // Dark from the start: the console's CRTC goes dark too, and comes back on exit.
            saved = SavedCrtc(fd: card.fd, crtcID: screen.target.crtcID, connectorID: screen.target.connectorID)
        }
        if !screen.committer.switchOff(screen.target) {
            Log.warning("\(screen.target.connectorName): the driver refused to switch the screen off: "
                        + "\(SystemError(call: "DPMS off", errno: Glibc.errno))")
        } else {
            Log.info("\(screen.target.connectorName): screen off (CRTC \(screen.target.crtcID) inactive, no signal)")
        }
    }

    /// A commit while one is in flight fails with EBUSY: let the queued flip complete first.
    /// Other screens' flips read meanwhile are handed to them from the loop afterwards, not
    /// from inside this call (they would draw their next frame under it).
    /// Returns the time this screen's flip completed, if one did.
    @discardableResult
    func waitForPendingFlip() -> Double? {
        guard let own = screen else { return nil }
        var shown: Double?
        var tries = 0
        while let done = flips.pending, tries < 10 {
            var p = pollfd(fd: card.fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 20) > 0 {
                for (screen, time) in card.readFlips() {
                    if screen === self {
                        // The screen is going dark or being given back: no next frame follows.
                        flips.current = done
                        flips.pending = nil
                        own.cardsShown.current = own.cardsShown.pending
                        shown = time
                    } else {
                        loop?.post { [weak screen] in screen?.flipCompleted(time: time) }
                    }
                }
            }
            tries += 1
        }
        return shown
    }

    package func restore() {
        // No more frames: a completion seen below must not make the daemon draw the next one.
        onPresented = nil
        onScreenChanged = nil
        // An atomic commit still in flight would make the restore fail with EBUSY.
        waitForPendingFlip()
        guard let saved else { return }
        let committer = screen?.committer ?? LegacyCommitter(card: card)
        if committer.restore(saved) {
            Log.info("restored CRTC \(saved.crtcID) with framebuffer \(saved.framebufferID)")
        } else {
            Log.warning("could not restore CRTC \(saved.crtcID): \(SystemError(call: "drmModeSetCrtc", errno: Glibc.errno))")
        }
        self.saved = nil
    }

    // MARK: - events

    /// A flip of this screen completed (called by the card's event handler).
    package func flipCompleted(time: Double) {
        guard let done = flips.pending else { return }
        flips.current = done
        flips.pending = nil
        if let screen { screen.cardsShown.current = screen.cardsShown.pending; screen.atomic?.writeback?.flipped(at: time) }
        onPresented?(time)
        if reprobeAfterFlip {
            reprobeAfterFlip = false
            hotplugged()
        }
    }


    private func hotplugged() {
        // Rebuilding buffers under a queued flip would free memory the CRTC is about to show.
        guard flips.pending == nil else { reprobeAfterFlip = true; return }
        Log.info("drm change event: re-probing \(card.path)")
        do throws(DisplayError) {
            try probe()
        } catch {
            Log.error("re-probing \(card.path) after hotplug: \(error)")
        }
    }

    /// Reads the connectors and (re)builds the screen if the choice changed.
    private func probe() throws(DisplayError) {
        let resources = try DrmResources(fd: card.fd)
        guard let connector = try OutputSelection.connector(named: settings.connector, in: resources.connectors) else {
            if screen != nil { Log.notice("\(screen?.target.connectorName ?? "screen") disconnected; waiting for it") }
            else {
                let states = resources.connectors.map { "\($0.name) \($0.connected ? "connected" : "disconnected")" }
                Log.notice("\(card.path): no connected screen yet (\(states.joined(separator: ", "))); waiting for hotplug")
            }
            replaceScreen(with: nil)
            return
        }
        let mode = try OutputSelection.mode(settings.mode, of: connector)
        if let screen, screen.target.connectorID == connector.id, screen.target.mode == mode { return }
        // This screen's own CRTC is free for it; the card's other screens' are not.
        let taken = card.claimedCrtcs.subtracting(screen.map { [$0.target.crtcID] } ?? [])
        guard let crtc = resources.crtc(for: connector, fd: card.fd, excluding: taken) else {
            throw .unsupported("no CRTC can drive connector \(connector.name)")
        }
        let target = ScanoutTarget(crtcID: crtc.id, crtcIndex: crtc.index, connectorID: connector.id,
                                   connectorName: connector.name, mode: mode)
        if let old = screen?.target.crtcID { card.release(crtc: old) }
        screen = nil   // free the old buffers before allocating new ones
        replaceScreen(with: try DrmScreen(card: card, target: target, settings: settings))
    }

    private func replaceScreen(with new: DrmScreen?) {
        if screen == nil && new == nil { return }
        if let old = screen?.target.crtcID { card.release(crtc: old) }
        if let crtc = new?.target.crtcID { card.claim(crtc: crtc, for: self) }
        screen = new
        flips.current = nil
        onScreenChanged?()
    }
}
