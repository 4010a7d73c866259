import CarouselCore

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
        if frameCovered() == true { events?.emit(.overwritten) }
        scanoutCheck?.schedule(at: now + Self.scanoutCheckInterval)
    }

    /// Whether the CRTC scans out a framebuffer other than the primary plane's of the frame this
    /// output last showed; nil while it shows none or one is queued.
    func frameCovered() -> Bool? {
        guard let screen, screen.lit, !committed.flipPending, let current = committed.current,
              let ours = current.view?.framebufferID ?? current.buffer.map({ screen.buffers[$0].framebufferID }),
              let crtc = DrmObjects.crtc(card.fd, screen.target.crtcID)?.pointer.pointee else { return nil }
        guard crtc.buffer_id != ours else { return false }
        Log.warning("\(screen.target.connectorName): another frame is on screen (framebuffer \(crtc.buffer_id), "
                    + "not ours, \(ours): the console's, when a VT went back to text mode); drawn again")
        return true
    }
}
