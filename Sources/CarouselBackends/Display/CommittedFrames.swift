import CarouselPixels

/// The one record of what a DRM output committed: the frame its CRTC scans out (`current`) and
/// the one queued for the next vblank (`pending`; at most one, a second flip is never queued).
/// A commit queues a frame; the flip's event, or `restore`'s wait for it, makes it current, as
/// wlroots moves a CRTC's queued state to current in its page-flip handler.
struct CommittedFrames {
    /// A frame: the primary plane's buffer (an index into the screen's buffers) or the view of
    /// the panned strip it scans out, and the cards on overlay planes (none: composed or panned).
    struct Frame {
        var buffer: Int?
        var view: FramebufferView?
        var cards: [(placed: PlacedCard, buffer: DumbBuffer)] = []
    }

    private(set) var current: Frame?
    private(set) var pending: Frame?

    var flipPending: Bool { pending != nil }

    /// The panned views on screen or queued: their windows must not be drawn into.
    var viewsInUse: [FramebufferView] { [current?.view, pending?.view].compactMap { $0 } }

    /// A commit was queued. A frame with neither a new buffer nor a view (cards moved alone)
    /// keeps what the primary plane shows.
    mutating func queued(buffer: Int?, view: FramebufferView?, cards: [(placed: PlacedCard, buffer: DumbBuffer)]) {
        if buffer == nil && view == nil {
            pending = Frame(buffer: current?.buffer, view: current?.view, cards: cards)
        } else {
            pending = Frame(buffer: buffer, view: view, cards: cards)
        }
    }

    /// The queued frame is on screen.
    mutating func flipped() {
        guard let pending else { return }
        current = pending
        self.pending = nil
    }
}
