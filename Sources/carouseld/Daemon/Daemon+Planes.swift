import CarouselBackends
import CarouselCore
import CarouselEngine
import CarouselPixels

/// Which way a screen's frames go, each way said once per reload: the cards on overlay planes,
/// or composed on the CPU for a reason. A page change that scales its cards alternates between
/// the two every few frames; the log must not.
struct PlanePathLog {
    private var said: Set<String> = []
    private var saidPlanes = false

    /// True the first time `what` is seen; the reason's details (in parentheses) do not count.
    mutating func firstTime(_ what: String) -> Bool {
        if said.contains(what) { return false }
        let kind = what.split(separator: "(", maxSplits: 1).first.map(String.init) ?? what
        return said.insert(kind).inserted
    }

    /// True for the first frame on planes: asked every frame on planes, so a flag, not a string
    /// hashed into the set.
    mutating func firstOnPlanes() -> Bool {
        defer { saidPlanes = true }
        return !saidPlanes
    }
}

extension Daemon {
    /// Puts `layout`'s cards on the screen's overlay planes where the output and the driver
    /// allow; false when the frame must be composed (nothing was shown then).
    func presentOnPlanes(_ layout: FrameLayout, on view: ScreenView) throws(DisplayError) -> Bool {
        guard let planes = view.output.planeCapabilities else { return false }
        let name = view.output.connectorName ?? view.output.devicePath
        switch view.renderer.planeFrame(layout, planes: planes) {
        case .compose(let reason):
            // A card still decoding is a moment of start-up, not a reason worth the log.
            if reason != PlaneAssignment.notDecoded, view.planeLog.firstTime(reason) { Log.info("\(name): composing frames on the CPU: \(reason)") }
            return false
        case .planes(let cards):
            // The background and dots change only with the page: most frames move planes alone.
            let bare = layout.background
            let drawBackground = bare == view.background ? nil : { (target: PixelBuffer) in view.renderer.drawBackground(layout, into: target) }
            if let refused = try view.output.present(cards: cards, drawBackground: drawBackground) {
                if view.planeLog.firstTime(refused) { Log.info("\(name): composing frames on the CPU: \(refused)") }
                return false
            }
            view.background = bare
            if !layout.isMoving { loop.post { [weak self] in self?.prepareNextCards(on: view) } }
            if view.planeLog.firstOnPlanes() {
                Log.info("\(name): cards on overlay planes (\(planes.overlays) available; \(cards.count) in this frame), "
                         + "background and dots on the primary plane")
            }
            return true
        }
    }

    /// At rest on planes, after the frame's commit: the next page change's cards are copied into
    /// plane buffers now, so that none is copied in that page change's frames (a refresh each).
    private func prepareNextCards(on view: ScreenView) {
        let cards = view.renderer.upcomingCards(engine.neighbourLayouts())
        guard !cards.isEmpty else { return }
        do {
            try view.output.prepare(cards: cards)
        } catch {
            Log.error("readying cards for overlay planes on \(view.output.summary): \(error)")
        }
    }
}
