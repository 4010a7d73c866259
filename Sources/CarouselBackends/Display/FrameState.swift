import CarouselCore
import CarouselPixels

/// What one output shows next, as one value the backend tests or applies, as weston's
/// `drm_output_state` and wlroots' output state are: the screen's power, the cards offered for
/// overlay planes, and the primary plane's new picture. The backend decides planes or
/// composition; the carousel never asks what the planes can do.
package struct FrameState {
    package enum Power: Equatable, Sendable { case on, off }

    /// `.off`: no signal (the monitor goes to standby); the next state that is on lights the
    /// screen again with a full modeset.
    package var power: Power = .on
    /// Cards offered for overlay planes, bottom to top; empty: a composed frame.
    package var cards: [PlaneCard] = []
    /// The buffer `acquire()` gave, drawn: the whole frame when composed, the background and
    /// dots under cards on planes. nil: the primary plane keeps what it shows.
    package var primary: PixelBuffer?
    /// At rest, with cards on planes: the cards the next page change may bring, copied into
    /// plane buffers after this commit, so that none is copied in that page change's frames.
    package var upcomingCards: [Card] = []
    /// The panned strip: the primary plane shows a window `acquireWide` gave from this column
    /// (no `primary`, no cards).
    package var pan: PanFrame?

    package init(power: Power = .on, cards: [PlaneCard] = [], primary: PixelBuffer? = nil, upcomingCards: [Card] = [],
                 pan: PanFrame? = nil) {
        self.power = power; self.cards = cards; self.primary = primary; self.upcomingCards = upcomingCards
        self.pan = pan
    }

    package static let off = FrameState(power: .off)
}

/// A frame of the panned strip: a wide window drawn at rest (`PanWindow`), shown from a column.
package struct PanFrame {
    package var window: PixelBuffer
    package var column: Int
    package init(window: PixelBuffer, column: Int) { self.window = window; self.column = column }
}

/// Whether `commit` only asks (DRM_MODE_ATOMIC_TEST_ONLY) or shows the state.
package enum CommitMode: Sendable { case test, apply }

/// The backend's answer to a state.
package enum CommitResult: Equatable {
    /// Tested: it would be shown as it is. Applied: it is queued, and `.presented` follows.
    case accepted
    /// The offered cards cannot go on overlay planes, for this reason: nothing changed on
    /// screen; compose the frame instead.
    case compose(ComposeReason)
}

/// What an output reports, in order, each after its own bookkeeping is done.
package enum OutputEvent: Equatable {
    /// A committed state became visible at this monotonic time.
    case presented(at: Double)
    /// The output is ready for its next frame (`FrameClock`: after a flip, or from its timer).
    case frame(at: Double)
    /// The screen appeared, changed mode or went away: the next frame is drawn in full at `size`.
    case changed
    /// Something else's frame is on the screen though this output still owns it (the kernel
    /// gives the console the screen when a VT goes back to text mode, as a crashing plymouthd
    /// does): the next frame is drawn again in full.
    case overwritten
    /// The output is gone for good and ends the daemon (a compositor's window).
    case ended(OutputEnd)
}

/// How an output ends the daemon.
package enum OutputEnd: Equatable {
    /// Asked to close (the compositor closed the window): stop as on SIGTERM.
    case closed
    /// Lost for good (the compositor went away): exit with status 1, so systemd restarts us.
    case failed(DisplayError)
}

/// Where an output's events go: each is posted to the loop, so the handler (the carousel's)
/// runs from the loop after the output's own work, in the order emitted, never inside a flip
/// handler, a commit or a hotplug probe of the output's.
package struct OutputEventSink {
    private let loop: EventLoop
    private let handler: (OutputEvent) -> Void

    package init(loop: EventLoop, handler: @escaping (OutputEvent) -> Void) {
        self.loop = loop; self.handler = handler
    }

    package func emit(_ event: OutputEvent) {
        loop.post(event, to: handler)
    }
}
