import CarouselCore
import CarouselEngine
import CarouselPixels

/// How an output shows a layout: the ladder of ways a frame reaches the glass, tried cheapest
/// first, as weston's `drm_output_propose_state` tries planes before its renderer. The strip
/// panned in the display engine (`FrameLadder+Panning`), then the cards on overlay planes
/// (tested, then applied), then the frame composed on the CPU, which cannot be refused.
///
/// Every output keeps one (`DisplayOutput.ladder`), with what it refused, the panned strip's
/// window, the background under cards on planes, and which ways it said it took. The carousel
/// hands it a layout and the screen's renderer; it starts a new ladder when the screen or the
/// renderer changes.
package struct FrameLadder {
    /// The ways the output refused for good, until the screen or the renderer changes.
    var refused = Refusals()
    /// The panned strip's window and column.
    var pan = PanState()
    /// The layout without cards that the primary plane shows under cards on planes (nil: a
    /// composed frame, or unknown).
    private var background: FrameLayout?
    /// How frames reached this screen, each way said once per ladder (a reload makes a new one).
    var pathLog = FramePathLog()

    package init() {}

    /// Shows `layout` on `output`, drawn by `renderer`: panned where the screen and the look
    /// allow, else its cards on overlay planes where the output takes them, else composed.
    /// - `onScreen`: the layout the lit screen shows now (nil: dark, or a first frame);
    /// - `upcoming`: the layouts the strip may show next (their cards are readied at rest);
    /// - `around`: the pages around a resting one (a pan window's);
    /// - `clock`: read once when a composed frame is drawn, for the start's figures (nil: not
    ///   asked).
    /// Returns that time: when the composed frame was drawn, before its commit (nil: not
    /// composed, or not asked).
    package mutating func show(_ layout: FrameLayout, replacing onScreen: FrameLayout?, on output: DisplayOutput,
                               renderer: FrameRenderer, upcoming: () -> [FrameLayout],
                               around: () -> [(distance: Double, layout: FrameLayout)],
                               clock: (() -> Double)?) throws(DisplayError) -> Double? {
        if try commitPanned(layout, replacing: onScreen, on: output, renderer: renderer, around: around) { return nil }
        let composedAt = try commit(layout, on: output, renderer: renderer, upcoming: upcoming, clock: clock)
        pan.column = nil
        if let waiting = pan.pending { _ = renderer.isFinal(waiting.layout) }
        return composedAt
    }

    private mutating func commit(_ layout: FrameLayout, on output: DisplayOutput, renderer: FrameRenderer,
                                 upcoming: () -> [FrameLayout], clock: (() -> Double)?) throws(DisplayError) -> Double? {
        let name = output.logName
        switch refused.reason(.planes).map(PlaneOffer.none) ?? renderer.planeCards(layout) {
        case .none(let reason):
            pathLog.composing(reason, on: name)
        case .cards(let cards):
            var state = FrameState(cards: cards)
            if case .compose(let reason) = try output.commit(state, .test) {
                pathLog.composing(reason, on: name)
                if reason.kind == .noOverlayPlanes { refused.refuse(.planes, because: reason) }
                break
            }
            // The background and dots change only with the page: most frames move planes alone.
            let bare = layout.background
            if bare != background {
                let buffer = try output.acquire()
                renderer.drawBackground(layout, into: buffer)
                state.primary = buffer
            }
            if !layout.isMoving { state.upcomingCards = renderer.upcomingCards(upcoming()) }
            switch try output.commit(state, .apply) {
            case .accepted:
                background = bare
                pathLog.onPlanes(cards.count, on: name)
                return nil
            case .compose(let reason):
                pathLog.composing(reason, on: name)
            }
        }
        let buffer = try output.acquire()
        renderer.draw(layout, into: buffer)
        let drawnAt = clock?()
        _ = try output.commit(FrameState(primary: buffer), .apply)
        background = nil
        return drawnAt
    }

    /// Commits the off state (no signal); the next frame lights the screen again.
    package mutating func switchOff(_ output: DisplayOutput) throws(DisplayError) {
        _ = try output.commit(.off, .apply)
        background = nil
    }

    /// The next frame draws the background under the planes again (an image arrived).
    package mutating func redrawBackground() { background = nil }

    /// At rest, the ladder waits for cards: on planes, the next page change's are readied as
    /// they decode; a pan window waits for its own before it is drawn.
    package var waitsForCards: Bool { background != nil || pan.awaitsCards }

    /// The strip came to rest on a page the window on screen holds: the window around that
    /// page is drawn at the next flip, not in the frame that came to rest.
    package var windowDue: Bool { pan.windowDue }
}

/// The ways a frame can reach the glass that an output may refuse; composing on the CPU cannot.
package enum FrameWay: Hashable {
    case panned, planes
}

/// What an output refused for good, one reason per way: that way is not offered again until
/// the screen or the renderer changes (a new ladder). Offering costs work a frame must not do
/// twice: a wide buffer for a pan, and for planes a look-up in the image store that also
/// steers its decodes.
package struct Refusals {
    private var reasons: [FrameWay: ComposeReason] = [:]

    func reason(_ way: FrameWay) -> ComposeReason? { reasons[way] }
    func allows(_ way: FrameWay) -> Bool { reasons[way] == nil }
    mutating func refuse(_ way: FrameWay, because reason: ComposeReason) { reasons[way] = reason }
}

extension DisplayOutput {
    /// The connector's name, or the device's path where there is none, for the log.
    package var logName: String { connectorName ?? devicePath }
}
