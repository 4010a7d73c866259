import CarouselCore
import CDRM
import CarouselEngine
import CarouselPixels
import Glibc

/// A DRM/KMS screen: picks connector and mode, lights it with the first frame, follows
/// hotplug, and puts the previous CRTC back on exit. Frames are states (the extension below).
///
/// What is on screen and queued is one record, `committed`; every buffer it does not hold is
/// free to draw into.
package final class DrmOutput: DisplayOutput {
    package var ladder = FrameLadder()
    package let card: DrmCard
    package let settings: OutputSettings
    package private(set) var screen: DrmScreen?
    /// The frame scanned out and the one queued for the next vblank.
    var committed = CommittedFrames()
    /// The CRTC as it was before the daemon lit or darkened it, for `restore`.
    var saved: SavedCrtc?
    /// The first lighting keeps the mode on screen (no modeset); false once it has been tried.
    private var keptMode = false
    /// A screen replaced (hotplug) while its last flip was queued: its buffers live until that
    /// flip completes, and the new screen is announced then.
    private var retired: DrmScreen?
    private(set) weak var loop: EventLoop?
    /// Hears `presented`, `changed` and `overwritten`, from `attach` to `detach`.
    private(set) var events: OutputEventSink?
    /// `ctl writeback` asked while a flip was queued: it begins when that flip completes.
    var pendingWriteback: (frames: Int, directory: Int32)?
    /// Looks whether the screen still shows this output's frame (`checkScanout`); whether the
    /// log has said it does not.
    var scanoutCheck: LoopTimer?
    var coverSaid = false

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
        guard let screen, screen.lit, let current = committed.current else { return nil }
        if let view = current.view { return view.pixelBuffer }
        guard let index = current.buffer else { return nil }
        let primary = screen.buffers[index].pixelBuffer
        guard !current.cards.isEmpty else { return primary }
        // The primary plane holds only the background and dots: flatten the cards over it.
        screen.snapshot = PlaneFrameSnapshot.flatten(primary: primary, cards: current.cards.map { ($0.placed, $0.buffer.pixelBuffer) })
        return screen.snapshot?.buffer
    }

    package var isReady: Bool { screen != nil && !committed.flipPending && retired == nil }
    /// How this screen's frames were shown, for the stats line: panned (where its driver
    /// pans), with cards on overlay planes, or composed.
    package var statistics: String? {
        guard let screen else { return nil }
        return "\(screen.target.connectorName) panned frames \(screen.pannedFrames), "
            + "frames with cards on planes \(screen.planeFrames), composed frames \(screen.composedFrames)"
    }
    package var refreshInterval: Double {
        guard let refresh = screen?.target.mode.refresh, refresh > 0 else { return 1.0 / 60 }
        return 1.0 / Double(refresh)
    }

    deinit {
        if let crtc = screen?.target.crtcID { card.release(crtc: crtc) }
        if let (_, directory) = pendingWriteback { close(directory) }
    }

    package var devicePath: String { card.path }
    package var connectorID: UInt32? { screen?.target.connectorID }
    package var connectorName: String? { screen?.target.connectorName }
    package var isFirmwareFramebuffer: Bool { DrmCard.firmwareDrivers.contains(card.driverName) }

    package func detach() {
        if loop != nil { card.detachScreen() }
        loop = nil
        events = nil
        scanoutCheck = nil
    }

    package func attach(to loop: EventLoop, events: @escaping (OutputEvent) -> Void) throws {
        self.loop = loop
        self.events = OutputEventSink(loop: loop, handler: events)
        try card.attachScreen(to: loop)
        scanoutCheck = loop.timer("scanout check", owner: self) { $0.checkScanout(now: $1) }
        scanoutCheck?.schedule(at: loop.time.now() + Self.scanoutCheckInterval)
    }

    /// A commit while one is in flight fails with EBUSY: let the queued flip complete first.
    /// Only `restore` waits so, when the daemon gives the screen back and the loop has ended;
    /// everything else waits for the flip's event. Other screens' flips read meanwhile are handed to them from the loop afterwards, not
    /// from inside this call (they would draw their next frame under it).
    /// Returns the time this screen's flip completed, if one did.
    @discardableResult
    private func waitForPendingFlip() -> Double? {
        guard screen != nil else { return nil }
        var shown: Double?
        var tries = 0
        while committed.flipPending, tries < 10 {
            var p = pollfd(fd: card.fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 20) > 0 {
                for (screen, time) in card.readFlips() {
                    if screen === self {
                        // The screen is going dark or being given back: no next frame follows.
                        queuedFrameShown(at: time)
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
        events = nil
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

    /// A flip of this screen completed (called by the card's event handler): the books first,
    /// then the event. A screen replaced under that flip is freed now, and announced.
    package func flipCompleted(time: Double) {
        if let old = retired {
            retired = nil
            if old.target.crtcID != screen?.target.crtcID { card.release(crtc: old.target.crtcID) }
            events?.emit(.changed)
            return
        }
        guard committed.flipPending else { return }
        queuedFrameShown(at: time)
        if let (frames, directory) = pendingWriteback {
            pendingWriteback = nil
            do throws(DisplayError) { try beginWriteback(frames: frames, directory: directory) } catch {
                Log.error("writeback on \(summary): \(error)")
            }
        }
        events?.emit(.presented(at: time))
    }

    /// The queued frame is on screen: the record moves on, and a read-back capture hears of
    /// it. The flip's event and `restore`'s wait for it both come here.
    private func queuedFrameShown(at time: Double) {
        committed.flipped()
        screen?.atomic?.writeback?.flipped(at: time)
    }

    /// A card's connectors changed (udev's "change" with HOTPLUG=1), or a driver that just
    /// loaded registered its connectors after the card ("add"): told by the supervisor.
    package func connectorsChanged() {
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
        // Free the old buffers before allocating new ones, unless the CRTC is about to show one.
        if !committed.flipPending { screen = nil }
        replaceScreen(with: try DrmScreen(card: card, target: target, settings: settings))
    }

    /// A flip still queued keeps the old screen's buffers (and the CRTC's event) until it
    /// completes; `changed` is reported then, so the next frame never meets a busy CRTC.
    private func replaceScreen(with new: DrmScreen?) {
        if screen == nil && new == nil { return }
        if let old = screen?.target.crtcID { card.release(crtc: old) }
        if let crtc = new?.target.crtcID { card.claim(crtc: crtc, for: self) }
        if committed.flipPending, let old = screen {
            retired = old
            // Its event comes by CRTC: keep the old CRTC routed here until it does.
            card.claim(crtc: old.target.crtcID, for: self)
        }
        screen = new
        committed = CommittedFrames()
        if retired == nil { events?.emit(.changed) }
    }
}

/// Frames as states: the DRM screen decides whether offered cards go on overlay planes or the
/// frame is composed, lights the screen with the first state, and darkens it with `.off`.
extension DrmOutput {
    /// The screen, when a frame may be drawn or committed now; else why not, for `asking`.
    private func readyScreen(_ asking: String) throws(DisplayError) -> DrmScreen {
        guard isReady, let screen else { throw .unsupported("\(asking) while \(screen == nil ? "no screen is connected" : "a flip is pending")") }
        return screen
    }

    package func acquire() throws(DisplayError) -> PixelBuffer {
        let screen = try readyScreen("a buffer asked for")
        return screen.rotator?.buffer ?? screen.buffers[nextBuffer(of: screen)].pixelBuffer
    }

    package func acquireWide(width: Int, height: Int) throws(DisplayError) -> PixelBuffer? {
        let screen = try readyScreen("a window asked for")
        guard screen.lit, let panBuffers = screen.panBuffers else { return nil }
        return try panBuffers.acquire(width: width, height: height, viewsInUse: committed.viewsInUse)
    }

    package func commit(_ state: FrameState, _ mode: CommitMode) throws(DisplayError) -> CommitResult {
        let screen = try readyScreen("a commit")
        if state.power == .off {
            if mode == .apply { switchOff(screen) }
            return .accepted
        }
        if let pan = state.pan { return try commitPanned(pan, mode, on: screen) }
        if !state.cards.isEmpty, let refusal = refusal(of: state.cards, on: screen) { return .compose(refusal) }
        var cards: [(placed: PlacedCard, buffer: DumbBuffer)] = []
        for card in state.cards { cards.append((card.placed, try screen.cardBuffers!.buffer(for: card.card))) }
        guard state.primary != nil || screen.lit else { throw .unsupported("lighting \(screen.target.connectorName) needs a picture") }
        let index = state.primary == nil ? nil : nextBuffer(of: screen)
        if mode == .apply, let index, let rotator = screen.rotator {
            let buffer = screen.buffers[index]
            rotator.copy(into: buffer.pixels, width: buffer.width, height: buffer.height, stride: buffer.stride)
        }
        var kms = KmsState(target: screen.target, lighting: screen.lit ? nil : screen.planeRotation,
                           primary: index.map { screen.buffers[$0] }, cards: cards)
        kms.keepsMode = !screen.lit && keepsModeOnScreen(screen)
        let outcome: KmsOutcome
        do {
            outcome = try screen.committer.commit(kms, test: mode == .test)
        } catch where kms.keepsMode {
            Log.notice("\(screen.target.connectorName): the first frame in the mode on screen failed (\(error)); with a modeset")
            kms.keepsMode = false
            keptMode = false
            outcome = try screen.committer.commit(kms, test: mode == .test)
        }
        if mode == .apply, kms.lighting != nil, case .accepted = outcome {
            Log.info("\(screen.target.connectorName): " + (kms.keepsMode
                ? "no modeset: the first frame replaces what was on screen in its mode, \(screen.target.mode.label)"
                : "modeset to \(screen.target.mode.label)"))
        }
        switch outcome {
        case .refused(let error):
            if let scaled = state.cards.first(where: \.isScaled) {
                screen.planeCapabilities?.canScale = false
                return .compose(.planesCannotScale(scale: scaled.placed.scale))
            }
            return .compose(.driverRefused(cards: cards.count, error: "\(SystemError(call: "atomic check", errno: error))"))
        case .accepted(let evented):
            guard mode == .apply else { return .accepted }
            applied(screen, buffer: index, cards: cards, evented: evented)
            if !cards.isEmpty, !state.upcomingCards.isEmpty { prepare(state.upcomingCards, on: screen) }
            return .accepted
        }
    }

    /// A frame of the panned strip: the primary plane shows a view of the window from a column.
    private func commitPanned(_ pan: PanFrame, _ mode: CommitMode, on screen: DrmScreen) throws(DisplayError) -> CommitResult {
        guard screen.lit, let panBuffers = screen.panBuffers else { return .compose(.cannotPan) }
        let view = try panBuffers.view(of: pan.window, at: pan.column, viewsInUse: committed.viewsInUse)
        switch try screen.committer.commit(KmsState(target: screen.target, primary: view), test: mode == .test) {
        case .refused(let error):
            return .compose(.panRefused(error: "\(SystemError(call: "page flip", errno: error))"))
        case .accepted(let evented):
            guard mode == .apply else { return .accepted }
            applied(screen, buffer: nil, cards: [], evented: evented, view: view)
            return .accepted
        }
    }

    /// Whether this screen's first lighting can keep the mode on screen (`ModeOnScreen`): asked
    /// before the daemon's first commit on the CRTC, when its state is read for `restore`.
    private func keepsModeOnScreen(_ screen: DrmScreen) -> Bool {
        guard saveCrtcBeforeFirstCommit(screen) else { return keptMode }
        keptMode = screen.committer.kind == "atomic" && ModeOnScreen.canKeep(fd: card.fd, target: screen.target, before: saved)
        return keptMode
    }

    /// Reads the CRTC's state for `restore` before the daemon's first commit on it, lighting or
    /// darkening it. True when read now: nothing of the daemon's is on that CRTC yet.
    private func saveCrtcBeforeFirstCommit(_ screen: DrmScreen) -> Bool {
        guard saved?.crtcID != screen.target.crtcID else { return false }
        saved = SavedCrtc(fd: card.fd, crtcID: screen.target.crtcID, connectorID: screen.target.connectorID)
        return true
    }

    /// The books after a commit was queued.
    private func applied(_ screen: DrmScreen, buffer index: Int?, cards: [(placed: PlacedCard, buffer: DumbBuffer)], evented: Bool,
                         view: FramebufferView? = nil) {
        screen.cardBuffers?.committed()
        if view != nil { screen.pannedFrames += 1 } else if !cards.isEmpty { screen.planeFrames += 1 } else if index != nil { screen.composedFrames += 1 }
        if !screen.lit {
            screen.lit = true
            keptMode = false   // lit: a later lighting (waking, a new screen) is a modeset
            Log.info("showing \(summary)")
        }
        committed.queued(buffer: index, view: view, cards: cards)
        if !evented {
            // Legacy SetCrtc completes on return: report it from the loop, like an event.
            loop?.post(to: self) { $0.flipCompleted(time: MonotonicClock.now()) }
        }
    }

    /// Why the screen's planes cannot take `cards` now, or nil when they may (the driver's
    /// check has the last word).
    private func refusal(of cards: [PlaneCard], on screen: DrmScreen) -> ComposeReason? {
        guard screen.lit else { return .notLit }
        guard let capabilities = screen.planeCapabilities else { return .noOverlayPlanes }
        return capabilities.refusal(for: cards.map(\.placed))
    }

    private func nextBuffer(of screen: DrmScreen) -> Int {
        committed.current?.buffer.map { ($0 + 1) % screen.buffers.count } ?? 0
    }

    /// At rest on planes, after the frame's commit: the next page change's cards are copied
    /// into plane buffers now, not in that page change's frames (a refresh each).
    private func prepare(_ upcoming: [Card], on screen: DrmScreen) {
        do throws(DisplayError) {
            try screen.cardBuffers?.prepare(upcoming)
        } catch {
            Log.error("readying cards for overlay planes on \(summary): \(error)")
        }
    }

    /// The power-off state: no signal, so the monitor goes to standby. The next state lights
    /// the screen again with a full modeset (the last picture again).
    private func switchOff(_ screen: DrmScreen) {
        // Dark from the start: the console's CRTC goes dark too, and comes back on exit.
        if !screen.lit { _ = saveCrtcBeforeFirstCommit(screen) }
        let name = screen.target.connectorName
        do throws(DisplayError) {
            let dark = KmsState(target: screen.target, active: false)
            if case .refused(let error) = try screen.committer.commit(dark, test: false) {
                return Log.warning("\(name): the driver refused to switch the screen off: \(SystemError(call: "DPMS off", errno: error))")
            }
            Log.info("\(name): screen off (CRTC \(screen.target.crtcID) inactive, no signal)")
        } catch {
            Log.warning("\(name): switching the screen off: \(error)")
        }
        screen.lit = false
    }
}
