import CarouselCore
import CarouselPixels
import Glibc

/// What the screen really shows, read from the display engine: its own composition of the next
/// frames (writeback, issue 24, as `ctl writeback` asks), and the framebuffer its CRTC scans out
/// (the scanout check, below).
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

/// Every few seconds a DRM output looks whether the screen still scans out its frame. The
/// kernel gives the console the screen, DRM master or not, when a process puts a VT back in
/// text mode (`KDSETMODE KD_TEXT`, the case `drm_fb_helper_set_par` keeps for X servers going
/// away): plymouthd's crash handler does, and its crash report then covers the carousel. Nothing
/// tells the master so, and a carousel at rest draws nothing more: the console would stay until
/// the next page change (an hour, with a long interval). One ioctl each time.
extension DrmOutput {
    /// How long someone else's frame may stay up: a page that is read, no more.
    static let scanoutCheckInterval = 5.0

    func checkScanout(now: Double) {
        scanoutCheck?.schedule(at: now + Self.scanoutCheckInterval)
        guard let (scannedOut, ours) = scannedOutFramebuffers() else { return }
        guard scannedOut != ours else {
            coverSaid = false
            return
        }
        // Said once until our frame is back: a draw that cannot take the screen back is retried
        // at each check without a line each time.
        if !coverSaid {
            Log.warning("\(connectorName ?? devicePath): another frame is on screen (framebuffer \(scannedOut), not ours, \(ours): "
                        + "the console's, when a VT went back to text mode); drawn again")
        }
        coverSaid = true
        events?.emit(.overwritten)
    }

    /// The framebuffer the CRTC scans out, and the primary plane's of the frame this output last
    /// showed; nil while it shows none or one is queued.
    private func scannedOutFramebuffers() -> (scannedOut: UInt32, ours: UInt32)? {
        guard let screen, screen.lit, !committed.flipPending, let current = committed.current,
              let ours = current.view?.framebufferID ?? current.buffer.map({ screen.buffers[$0].framebufferID }),
              let crtc = DrmObjects.crtc(card.fd, screen.target.crtcID)?.pointer.pointee else { return nil }
        return (crtc.buffer_id, ours)
    }
}
