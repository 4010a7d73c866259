import CarouselCore
import CarouselPixels
import Glibc

/// Writeback readback (issue 24): the display engine's own composition of the next frames,
/// as `ctl writeback` asks.
extension DrmOutput {
    /// `ctl writeback`: reads back the next `frames` frames into `directory` (a descriptor the
    /// capture owns from here on, closed by it, or here when it cannot start).
    package func startWriteback(frames: Int, directory: Int32) throws(DisplayError) -> String {
        guard let screen, screen.lit, let atomic = screen.atomic else {
            close(directory)
            throw .unsupported("writeback needs a lit screen with atomic KMS")
        }
        // Joining the writeback connector is a modeset: let a queued frame finish, and tell the
        // pacer it did (it waits for that flip to draw the next frame).
        if let shown = waitForPendingFlip() { loop?.post { [weak self] in self?.events?(.presented(at: shown)) } }
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
