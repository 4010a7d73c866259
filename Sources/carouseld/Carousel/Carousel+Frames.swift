import CarouselBackends
import CarouselCore
import CarouselEngine
import CarouselPixels

/// A carousel's frames: when one is drawn, and which screens it goes to (`Screen`, whose
/// output shows it the cheapest way it takes: `FrameLadder`).
///
/// While something moves, the next frame is composed when the leading screen (the first one
/// lit) is ready for it: its output's `frame` event (`FrameClock`, which also holds a virtual
/// GPU's flips to the refresh), with that time as `now`; a second flip is never queued. Every
/// other screen gets that same layout as soon as its own flip allows, so screens showing one
/// carousel never disagree by more than a frame, and a slow or dark screen never holds the
/// others up. While settled nothing is drawn or committed, and the only timer is the engine's
/// auto-advance.
///
/// Frames only: process deadlines (watchdog, reload, sync resume) are timers of their own on
/// the loop, due by the real clock, whatever this carousel's clock says.
extension Carousel {
    struct Pacing {
        /// Runs the next tick when no frame event comes sooner (an engine deadline, a dark move).
        var timer: LoopTimer?
        /// The layout of the last tick: what every screen should show.
        var layout: FrameLayout?
        /// Frames that became visible so far (on any screen).
        var framesPresented = 0
        /// A tick is posted to run after the current handler.
        var tickPosted = false
    }

    /// How often a move steps while no screen is lit: it still runs its course, so the strip
    /// comes to rest (a reload waits for that) with nothing to show it on.
    private static let darkStep = 0.25

    /// Hears each screen's output, through its frame clock. Outputs post their events to the
    /// loop: they arrive here from the loop, after the output's own bookkeeping, so a frame's
    /// tick runs straight away.
    func attachScreens() throws {
        for index in screens.indices {
            screens[index].clock = try FrameClock(output: screens[index].output, loop: loop) { [unowned self] event in
                switch event {
                case .presented(let time): presented(onScreen: index, at: time)
                case .frame(let time): frameDue(onScreen: index, at: time)
                case .changed: screenChanged(index)
                // Covered from outside (the output said why): drawn again as it was.
                case .overwritten: setNeedsRedraw([index])
                case .ended(let end): events.emit(.outputEnded(end))
                }
            }
        }
    }

    /// The screen that paces the frames: the first one lit.
    var pacingScreen: Int? { screens.firstIndex { $0.output.size != nil } }

    func scheduleTick() {
        guard !pacing.tickPosted else { return }
        pacing.tickPosted = true
        loop.post(to: self) { $0.tick(now: $0.loop.time.now()) }
    }

    /// Runs due wakeups, advances the engine to `now`, draws if something changed and the
    /// display is free, and arms the timer for whatever must happen next.
    func tick(now time: Double) {
        pacing.tickPosted = false
        guard !stopped else { return }
        // A touch frame's kernel time can be a little later than the flip that follows it.
        let now = fingersDown ? engine.now : max(time, engine.now)
        // The pacing screen holds its next frame to the refresh: its clock's `frame` ticks then.
        if let pacingScreen, screens[pacingScreen].clock?.holds == true { return }
        // A move that starts inside a tick is the countdown's: it began at the deadline itself.
        let (wasAtRest, countdown) = (!engine.isMoving, engine.nextDeadline)
        let new = engine.update(now: now)
        if wasAtRest, let countdown, countdown <= now, leftRest(new) {
            events.emit(.leftRest(self, .auto, at: countdown))
        }
        report(new)
        let layout = engine.layout()
        pacing.layout = layout
        for index in screens.indices { draw(layout, onScreen: index) }
        armTimer()
        // The loop's observer (its stall meter) learns from here whether frames now come one a
        // refresh: every move of the engine is followed by a tick in the same turn.
        loop.observer?.animating(ObjectIdentifier(self), isAnimatingOnScreen)
    }

    /// A frame became visible on screen `index` (the output posted it: this runs from the loop,
    /// after the output's own work). Another screen than the pacing one catches up with the
    /// layout the pacing screen is showing.
    func presented(onScreen index: Int, at time: Double) {
        pacing.framesPresented += 1
        if startup.firstFrame == nil {
            startup.firstFrame = time
            events.emit(.firstFrame(self, at: time, restingOn: engine.isMoving ? nil : engine.selectedIndex))
        }
        Log.debug("frame \(pacing.framesPresented) visible at \(time)")
        guard index != pacingScreen, let layout = pacing.layout else { return }
        draw(layout, onScreen: index)
    }

    /// Screen `index` is ready for its next frame: the pacing screen's readiness ticks at once,
    /// at its time.
    func frameDue(onScreen index: Int, at time: Double) {
        guard index == pacingScreen, !pacing.tickPosted else { return }
        tick(now: time)
    }

    func screenChanged(_ index: Int) {
        let output = screens[index].output
        if output.size != nil { Log.info("screen \(output.summary)") }
        rearrange()
        screens[index].renderer.invalidate()
        screens[index].power = nil   // a new screen: switched off anew if the screens are off
        screens[index].newLadder()
        setNeedsRedraw()
    }

    private func draw(_ layout: FrameLayout, onScreen index: Int) {
        let output = screens[index].output
        guard output.isReady, output.size != nil else { return }
        guard screensOn else { return switchOff(index) }
        // A fast frame sampled nearest is followed by the same layout drawn bilinear, so a
        // finger that stops dead never leaves a coarse frame on screen.
        let screen = screens[index]
        guard screen.redraw || layout != screen.lastDrawn || screen.renderer.needsRefinement || screen.power != .on
              || screen.output.ladder.windowDue else { return }
        // The kept start frame stays until the live frame of that layout is final (no preview);
        // a first frame waits for its cards a moment (`firstFrameWait`). A decode redraws.
        if screen.showsKeptFrame, layout == screen.lastDrawn, !screen.renderer.isFinal(layout) { return }
        if screen.power == nil, let deadline = startup.firstFrameDeadline, loop.time.now() < deadline,
           !screen.renderer.isFinal(layout) { return }
        if startup.firstDraw == nil { startup.firstDraw = loop.time.now() }
        do {
            try screens[index].show(layout, upcoming: { engine.neighbourLayouts() },
                                    around: { engine.restingLayouts(pagesAway: FrameLadder.pagesAround) }, now: loop.time.now)
            if startup.firstCommit == nil { startup.firstCommit = loop.time.now() }
            keepStartFrameIfDue(layout)
            // With "frame N visible at", how long the daemon took from a flip to the next commit
            // (the rest, to the flip after, is the driver's).
            Log.debug("frame committed at \(loop.time.now())")
        } catch {
            Log.error("presenting a frame on \(output.summary): \(error)")
        }
    }

    private func switchOff(_ index: Int) {
        guard screens[index].power != .off else { return }
        do {
            try screens[index].switchOff()
        } catch {
            Log.error("switching off \(screens[index].output.summary): \(error)")
        }
    }

    private func armTimer() {
        var next: Double?
        // The lit screen whose next frame is wanted: no other's clock raises one of its own.
        let paced = engine.isMoving && screensOn ? pacingScreen : nil
        for index in screens.indices where index != paced { screens[index].clock?.cancelScheduledFrame() }
        if let paced {
            // Its next `frame` drives the next frame: its pending flip, or its clock a refresh
            // from now (the layout did not change this instant). With several screens, a pacing
            // screen whose flip does not complete (a screen gone dark mid-frame) must not stop
            // the others: they go on at a quarter of the rate.
            let output = screens[paced].output
            screens[paced].clock?.scheduleFrame(now: loop.time.now())
            if screens.count > 1, !output.isReady { next = loop.time.now() + 4 * output.refreshInterval }
        } else if engine.isMoving {
            next = loop.time.now() + Self.darkStep
        } else {
            next = engine.nextDeadline
        }
        // A first frame waiting for its cards is drawn at the deadline whatever is decoded.
        // (The clock last: every frame arms this, and where the clock source has no vDSO a read
        // is a system call.)
        if let deadline = startup.firstFrameDeadline, screens.contains(where: { $0.power == nil }), deadline > loop.time.now() {
            next = min(next ?? deadline, deadline)
        }
        pacing.timer?.schedule(at: next)
    }

    /// The engine's events, handed out once the current handler (a tick, a touch, a control
    /// request) has returned.
    func report(_ new: [CarouselEvent]) {
        guard !stopped else { return }
        for event in new { events.emit(.engine(self, event)) }
    }
}

extension Carousel {
    /// One screen the carousel is shown on: its output, its renderer (which knows where on the
    /// carousel this screen looks: `ViewTransform`), and what it shows now.
    struct Screen {
        let output: DisplayOutput
        /// When the output is ready for the next frame (attached by `attachScreens`).
        var clock: FrameClock?
        /// The panel's rotation (its touches are turned with it).
        let rotation: Int
        var renderer: FrameRenderer = NoRenderer()
        var lastDrawn: FrameLayout?
        var redraw = true
        /// The power state last committed: a screen switched off is committed `.off` once.
        var power: FrameState.Power?
        /// The screen shows the kept start frame (`Carousel+KeptFrame`), not a live one yet.
        var showsKeptFrame = false
        /// No start frame is kept for this screen and the current config yet.
        var keepsStartFrame = true
        /// When this screen's first composed frame was drawn: the start's breakdown tells the
        /// compose from the commit after it.
        var firstComposedAt: Double?

        init(output: DisplayOutput, rotation: Int) { self.output = output; self.rotation = rotation }

        /// Shows `layout` the cheapest way its output takes (the output's `FrameLadder`).
        /// `now`: the carousel's clock.
        mutating func show(_ layout: FrameLayout, upcoming: () -> [FrameLayout],
                           around: () -> [(distance: Double, layout: FrameLayout)],
                           now: @escaping () -> Double) throws(DisplayError) {
            let composedAt = try output.ladder.show(layout, replacing: power == .on ? lastDrawn : nil, on: output,
                                                    renderer: renderer, upcoming: upcoming, around: around,
                                                    clock: firstComposedAt == nil ? now : nil)
            if firstComposedAt == nil { firstComposedAt = composedAt }
            showsKeptFrame = false
            power = .on
            lastDrawn = layout
            redraw = false
        }

        /// Commits the off state once (no signal); the next frame lights the screen again.
        mutating func switchOff() throws(DisplayError) {
            try output.ladder.switchOff(output)
            power = .off
        }

        /// A new screen or renderer: the output's ladder starts again (what it refused, its window).
        func newLadder() { output.ladder = FrameLadder() }
    }
}

/// Draws nothing: a screen's renderer before the carousel made the real ones.
private final class NoRenderer: FrameRenderer {
    func draw(_ layout: FrameLayout, into target: PixelBuffer) {}
    func invalidate() {}
}
