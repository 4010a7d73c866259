import CarouselCore
import CarouselPixels
import Glibc

/// Frames as states: the DRM screen decides whether offered cards go on overlay planes or the
/// frame is composed, lights the screen with the first state, and darkens it with `.off`.
extension DrmOutput {
    package func acquire() throws(DisplayError) -> PixelBuffer {
        guard isReady, let screen else { throw .unsupported("a buffer asked for while \(screen == nil ? "no screen is connected" : "a flip is pending")") }
        return screen.rotator?.buffer ?? screen.buffers[nextBuffer(of: screen)].pixelBuffer
    }

    package func commit(_ state: FrameState, _ mode: CommitMode) throws(DisplayError) -> CommitResult {
        guard isReady, let screen else {
            throw .unsupported("a commit while \(screen == nil ? "no screen is connected" : "a flip is pending")")
        }
        if state.power == .off {
            if mode == .apply { switchOff(screen) }
            return .accepted
        }
        if !state.cards.isEmpty, let refusal = refusal(of: state.cards, on: screen) { return .compose(refusal) }
        var cards: [(placed: PlacedCard, buffer: DumbBuffer)] = []
        for card in state.cards { cards.append((card.placed, try screen.cardBuffers!.buffer(for: card.card))) }
        guard state.primary != nil || screen.lit else { throw .unsupported("lighting \(screen.target.connectorName) needs a picture") }
        let index = state.primary == nil ? nil : nextBuffer(of: screen)
        if mode == .apply, let index, let rotator = screen.rotator {
            let buffer = screen.buffers[index]
            rotator.copy(into: buffer.pixels, width: buffer.width, height: buffer.height, stride: buffer.stride)
        }
        let kms = KmsState(target: screen.target, lighting: screen.lit ? nil : screen.planeRotation,
                           primary: index.map { screen.buffers[$0] }, cards: cards)
        switch try screen.committer.commit(kms, test: mode == .test) {
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

    /// The books after a commit was queued.
    private func applied(_ screen: DrmScreen, buffer index: Int?, cards: [(placed: PlacedCard, buffer: DumbBuffer)], evented: Bool) {
        screen.cardBuffers?.committed()
        if !screen.lit {
            if saved?.crtcID != screen.target.crtcID {
                saved = SavedCrtc(fd: card.fd, crtcID: screen.target.crtcID, connectorID: screen.target.connectorID)
            }
            screen.lit = true
            Log.info("showing \(summary)")
        }
        flips.pending = index ?? flips.current
        screen.cardsShown.pending = cards
        if !evented {
            // Legacy SetCrtc completes on return: report it from the loop, like an event.
            loop?.post { [weak self] in self?.flipCompleted(time: MonotonicClock.now()) }
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
        flips.current.map { ($0 + 1) % screen.buffers.count } ?? 0
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
        if !screen.lit && saved?.crtcID != screen.target.crtcID {
            // Dark from the start: the console's CRTC goes dark too, and comes back on exit.
            saved = SavedCrtc(fd: card.fd, crtcID: screen.target.crtcID, connectorID: screen.target.connectorID)
        }
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
