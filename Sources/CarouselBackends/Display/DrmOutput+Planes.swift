import CarouselCore
import CarouselPixels
import Glibc

/// Cards on overlay planes and writeback readback (issue 24): the DRM screen's side of the
/// plane path, beside the composed frames of `DrmOutput`.
extension DrmOutput {
    package var planeCapabilities: PlaneCapabilities? {
        guard let screen, screen.lit, !asleep, var capabilities = screen.cardPlanes?.capabilities else { return nil }
        if screen.planesCannotScale { capabilities.canScale = false }
        return capabilities
    }

    package func present(cards: [PlaneCard], drawBackground: ((PixelBuffer) -> Void)?) throws(DisplayError) -> String? {
        guard let screen, screen.lit, flips.pending == nil, let current = flips.current, let planes = screen.cardPlanes else {
            throw .unsupported("cards on planes while the screen is not lit or a flip is pending")
        }
        var index = current
        if let drawBackground {
            index = (current + 1) % screen.buffers.count
            drawBackground(screen.buffers[index].pixelBuffer)
        }
        var placed: [(placed: PlacedCard, buffer: DumbBuffer)] = []
        for card in cards { placed.append((card.placed, try planes.buffers.buffer(for: card.card))) }
        guard try planes.committer.flip(screen.target, buffer: index == current ? nil : screen.buffers[index], cards: placed) else {
            let error = SystemError(call: "atomic check", errno: Glibc.errno)
            if let scaled = cards.first(where: \.isScaled) {
                screen.planesCannotScale = true
                return "the planes cannot scale (the driver refused a card shown at \(scaled.placed.destination.width)x"
                    + "\(scaled.placed.destination.height) from \(Int(scaled.placed.source.width))x\(Int(scaled.placed.source.height)): "
                    + "\(error))"
            }
            return "the driver refused \(cards.count) cards on overlay planes (\(error))"
        }
        planes.buffers.committed()
        flips.pending = index
        screen.cardsShown.pending = placed
        return nil
    }

    package func prepare(cards: [Card]) throws(DisplayError) {
        guard let screen, screen.lit, !asleep, let planes = screen.cardPlanes else { return }
        try planes.buffers.prepare(cards)
    }

    /// `ctl writeback`: reads back the next `frames` frames into `directory` (a descriptor the
    /// capture owns from here on, closed by it, or here when it cannot start).
    package func startWriteback(frames: Int, directory: Int32) throws(DisplayError) -> String {
        guard let screen, screen.lit, let atomic = screen.atomic else {
            close(directory)
            throw .unsupported("writeback needs a lit screen with atomic KMS")
        }
        // Joining the writeback connector is a modeset: let a queued frame finish, and tell the
        // pacer it did (it waits for that flip to draw the next frame).
        if let shown = waitForPendingFlip() { loop?.post { [weak self] in self?.onPresented?(shown) } }
        do throws(DisplayError) {
            let capture = try WritebackCapture(card: card, target: screen.target, frames: frames, directory: directory, loop: loop)
            capture.onFinished = { [weak self] in self?.endWritebackIfDone() }
            atomic.writeback = capture
        } catch {
            close(directory)
            throw error
        }
        return "reading back the next \(frames) frames of \(screen.target.connectorName)"
    }

    /// Gives the CRTC back once the capture has every frame, when no flip is pending (its
    /// modeset would be refused meanwhile; the flip's handler calls again).
    func endWritebackIfDone() {
        guard let screen, flips.pending == nil, let capture = screen.atomic?.writeback, capture.finished else { return }
        capture.end()
        screen.atomic?.writeback = nil
        Log.info("\(screen.target.connectorName): writeback finished")
    }
}
