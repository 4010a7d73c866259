import CarouselCore
import CarouselPixels
import Glibc

/// Writeback readback (issue 24): the display engine's own composition of the next frames,
/// as `ctl writeback` asks.
extension DrmOutput {
    /// `ctl writeback`: reads back the next `frames` frames into `directory` (a descriptor the
    /// capture owns from here on, closed by it, or here when it cannot start).
    package func startWriteback(frames: Int, directory: Int32) throws(DisplayError) -> String {
        guard let screen, screen.lit, screen.atomic != nil, pendingWriteback == nil else {
            close(directory)
            throw .unsupported("writeback needs a lit screen with atomic KMS and no capture waiting")
        }
        let what = "reading back the next \(frames) frames of \(screen.target.connectorName)"
        guard committed.flipPending else {
            try beginWriteback(frames: frames, directory: directory)
            return what
        }
        // Joining the writeback connector is a modeset, refused while a flip is queued: the
        // capture begins when that flip completes (`flipCompleted`), and the loop never waits.
        pendingWriteback = (frames, directory)
        return what + " (from the frame after the one in flight)"
    }

    /// Starts the capture now that no flip is queued; closes `directory` when it cannot.
    func beginWriteback(frames: Int, directory: Int32) throws(DisplayError) {
        guard let screen, let atomic = screen.atomic else {
            close(directory)
            throw .unsupported("the screen went before its writeback could begin")
        }
        do throws(DisplayError) {
            let capture = try WritebackCapture(card: card, target: screen.target, frames: frames, directory: directory,
                                               loop: loop, whenFinished: { [weak self] in self?.endWritebackIfDone() })
            atomic.writeback = capture
        } catch {
            close(directory)
            throw error
        }
    }

    /// Gives the CRTC back once the capture has every frame, when no flip is pending (its
    /// modeset would be refused meanwhile; the flip's handler calls again).
    func endWritebackIfDone() {
        guard let screen, !committed.flipPending, let capture = screen.atomic?.writeback, capture.finished else { return }
        capture.end()
        screen.atomic?.writeback = nil
        Log.info("\(screen.target.connectorName): writeback finished")
    }
}
