import CarouselBackends
import CarouselCore
import CarouselEngine
import CarouselPixels
import Glibc

/// What a carousel's pacer asks of, and tells, the part that owns it (`ScreenGroup`).
protocol DaemonDelegate: AnyObject {
    /// The engine's viewport for the screens' sizes (nil: not lit).
    func viewport(of daemon: Daemon, forScreens sizes: [Size?]) -> Size?
    /// A screen appeared or changed mode: the engine's viewport is `size` now.
    func daemon(_ daemon: Daemon, resizedTo size: Size)
    /// An engine event, handed out after the tick that made it.
    func daemon(_ daemon: Daemon, reported event: CarouselEvent)
    /// The first frame is on screen (READY=1).
    func daemon(_ daemon: Daemon, firstFrameAt time: Double)
    /// The strip, at rest until now, started moving (or was cut to another picture) at `time`
    /// (the engine's clock), for `cause`: where a showing ends, for proof of play.
    func daemon(_ daemon: Daemon, leftRestBecause cause: MoveCause, at time: Double)
}

/// The running carousel: feeds time to the engine and puts its layouts on the outputs.
///
/// Pacing: while something moves, the next frame is composed when the previous flip of the
/// leading screen (the first one lit) completes, with the flip's timestamp as `now`; a second
/// flip is never queued. Every other screen gets that same layout as soon as its own flip
/// allows, so screens showing one carousel never disagree by more than a frame, and a slow
/// or dark screen never holds the others up. On displays whose flips complete at once
/// (virtual GPUs), frames are held back to the mode's refresh with the timer. While settled
/// nothing is drawn or committed, and the only timer is the engine's auto-advance.
///
/// The pacer paces frames only: process deadlines (watchdog, reload, sync resume) are timers
/// of their own on the loop, due by the real clock, whatever this carousel's clock says.
/// The engine's events are handed out after the tick that made them, never inside it, so no
/// listener changes the engine under its own update.
final class Daemon {
    private(set) var engine: CarouselEngine
    let views: [ScreenView]
    let loop: EventLoop
    private var timer: LoopTimer!
    /// Events of the engine not yet handed to the delegate.
    private var events: [CarouselEvent] = []
    /// The layout of the last tick: what every screen should show.
    private var current: FrameLayout?
    private var pacing = Pacing()
    private var stopped = false
    /// The screens are to be lit (`setScreens(on:)`).
    private(set) var screensOn = true
    /// Frames that became visible so far (on any screen), and the time the first one did.
    private(set) var framesPresented = 0
    private(set) var firstFrameTime: Double?
    /// Arranges the screens and hears the events; without one, the first lit screen is the viewport.
    weak var delegate: DaemonDelegate?

    private struct Pacing {
        /// A tick is posted to run after the current handler.
        var tickPosted = false
        /// No frame before this time (a virtual GPU's flips complete at once: the next "vblank").
        var holdUntil: Double?
        /// When the leading screen's last frame became visible.
        var lastPresented: Double?
    }
    /// True while a finger is down. The engine's clock then advances only with touch frames:
    /// their kernel times trail the wall clock (more so while a frame is being drawn), and a
    /// flip time or timer pushed into `now` would stamp the touches still queued too late,
    /// which reads as a finger that rested before lifting (no fling).
    var fingersDown: Bool { engine.hasFingersDown }

    convenience init(engine: CarouselEngine, output: DisplayOutput, renderer: FrameRenderer, loop: EventLoop) throws {
        try self.init(engine: engine, views: [ScreenView(output: output, renderer: renderer)], loop: loop)
    }

    init(engine: CarouselEngine, views: [ScreenView], loop: EventLoop) throws {
        self.engine = engine; self.views = views; self.loop = loop
        timer = loop.timer("frame timer") { [unowned self] now in tick(now: now) }
        for view in views {
            try view.output.attach(to: loop) { [unowned self, unowned view] event in
                switch event {
                case .presented(let time): presented(view, at: time)
                case .changed: screenChanged(view)
                }
            }
        }
        if let size = viewport() { self.engine.resize(size) }
    }

    private func viewport() -> Size? {
        let sizes = views.map(\.output.size)
        guard let delegate else { return sizes.lazy.compactMap { $0 }.first }
        return delegate.viewport(of: self, forScreens: sizes)
    }

    /// The screen that paces the frames: the first one lit.
    private var leader: ScreenView? { views.first { $0.output.size != nil } }

    /// The strip moves on a lit screen, so frames come one a refresh: what the loop's stall
    /// meter watches. A move with no screen lit steps a few times a second, and is no stall.
    var isAnimatingOnScreen: Bool { engine.isMoving && leader != nil }

    /// How often a move steps while no screen is lit: it still runs its course, so the strip
    /// comes to rest (a reload waits for that) with nothing to show it on.
    private static let darkStep = 0.25

    /// Draws the first frame (if a screen is there) and arms the first deadline.
    func start() { tick(now: loop.time.now()) }

    // MARK: - for the other parts of the shell

    /// Applies a change to the engine (a touch frame, a key) and reports its events; the
    /// resulting frame is drawn once the current handler returns. `cause` names the asker: if
    /// the change takes the strip off its rest, the delegate hears it at once (before the
    /// events), so the picture's showing ends when its move began.
    func updateEngine(cause: MoveCause, _ change: (inout CarouselEngine) -> [CarouselEvent]) {
        let wasAtRest = !engine.isMoving
        let events = change(&engine)
        if wasAtRest, leftRest(events) { delegate?.daemon(self, leftRestBecause: cause, at: engine.now) }
        report(events)
        scheduleTick()
    }

    /// The strip moves now, or was cut: an engine at rest before reports `settled` only for a cut.
    private func leftRest(_ events: [CarouselEvent]) -> Bool {
        engine.isMoving || events.contains { if case .settled = $0 { true } else { false } }
    }

    /// Runs `body` on the engine (reconfigure, reload); call `setNeedsRedraw` if it changed.
    func modifyEngine<T>(_ body: (inout CarouselEngine) -> T) -> T { body(&engine) }

    /// Runs a tick (due wakeups, engine, frame) once the current handler returns.
    func wake() { scheduleTick() }

    /// No more ticks, frames or timers: the screen is about to be given back.
    func stop() {
        stopped = true
        timer.schedule(at: nil)
    }

    /// Draws the next frame even if the layout did not change (an image arrived).
    func setNeedsRedraw() {
        for view in views { view.redraw = true; view.background = nil }
        scheduleTick()
    }

    /// Cards off screen were decoded: while the strip rests with cards on overlay planes, the
    /// resting state is committed again (it moves nothing, the background stays), so that the
    /// output copies the next page change's cards into plane buffers now, not in its frames.
    func offScreenCardsDecoded() {
        guard !engine.isMoving else { return }
        let onPlanes = views.filter { $0.background != nil }
        guard !onPlanes.isEmpty else { return }
        for view in onPlanes { view.redraw = true }
        scheduleTick()
    }

    /// Uses new renderers, one per screen (the config or the screens changed), and redraws
    /// everything with them.
    func replaceRenderers(_ renderers: [FrameRenderer]) {
        for (view, renderer) in zip(views, renderers) {
            view.renderer = renderer
            view.pathLog = FramePathLog()
            view.offersCards = true
        }
        setNeedsRedraw()
    }

    /// The screens' power: off is a state committed once to each screen as soon as it is free
    /// (no signal; the strip goes on moving unseen); on lights them with the next frame.
    func setScreens(on: Bool) {
        guard on != screensOn else { return }
        screensOn = on
        setNeedsRedraw()
    }

    /// Asks the delegate for the viewport again (a screen changed, or the delegate was set).
    func rearrange() {
        guard let size = viewport() else { return }
        engine.resize(size)
        delegate?.daemon(self, resizedTo: size)
    }

    // MARK: - pacing

    /// `time`: the flip's time to tick at (the loop's clock reads later by then).
    private func scheduleTick(at time: Double? = nil) {
        guard !pacing.tickPosted else { return }
        pacing.tickPosted = true
        loop.post { [unowned self] in tick(now: time ?? loop.time.now()) }
    }

    /// Runs due wakeups, advances the engine to `now`, draws if something changed and the
    /// display is free, and arms the timer for whatever must happen next.
    private func tick(now time: Double) {
        pacing.tickPosted = false
        guard !stopped else { return }
        // A touch frame's kernel time can be a little later than the flip that follows it.
        let now = fingersDown ? engine.now : max(time, engine.now)
        if let hold = pacing.holdUntil, now < hold { armTimer(); return }
        pacing.holdUntil = nil
        // A move that starts inside a tick is the countdown's: it began at the deadline itself.
        let (wasAtRest, countdown) = (!engine.isMoving, engine.nextDeadline)
        let events = engine.update(now: now)
        if wasAtRest, let countdown, countdown <= now, leftRest(events) {
            delegate?.daemon(self, leftRestBecause: .auto, at: countdown)
        }
        report(events)
        drawIfChanged()
        armTimer()
    }

    private func presented(_ view: ScreenView, at time: Double) {
        framesPresented += 1
        if firstFrameTime == nil {
            firstFrameTime = time
            delegate?.daemon(self, firstFrameAt: time)
        }
        Log.debug("frame \(framesPresented) visible at \(time)")
        // Another screen: it catches up with the layout the leader is showing.
        guard view === leader else {
            if let current { draw(current, on: view) }
            return
        }
        // A flip that completed well before one refresh period after the previous one (a
        // virtual GPU): hold the next frame until that "vblank", and count from there.
        let refresh = view.output.refreshInterval
        if let previous = pacing.lastPresented, time - previous < refresh * 0.9 {
            pacing.holdUntil = previous + refresh
            pacing.lastPresented = previous + refresh
        } else {
            pacing.lastPresented = time
        }
        // The next frame is drawn from the loop, after the output's event handler returned.
        scheduleTick(at: time)
    }

    private func screenChanged(_ view: ScreenView) {
        if view.output.size != nil { Log.info("screen \(view.output.summary)") }
        rearrange()
        view.renderer.invalidate()
        view.power = nil   // a new screen: switched off anew if the screens are off
        view.offersCards = true
        pacing.lastPresented = nil
        pacing.holdUntil = nil
        setNeedsRedraw()
    }

    private func drawIfChanged() {
        let layout = engine.layout()
        current = layout
        for view in views { draw(layout, on: view) }
    }

    private func draw(_ layout: FrameLayout, on view: ScreenView) {
        guard view.output.isReady, view.output.size != nil else { return }
        guard screensOn else { return switchOff(view) }
        // A fast frame sampled nearest is followed by the same layout drawn bilinear, so a
        // finger that stops dead never leaves a coarse frame on screen.
        guard view.redraw || layout != view.lastDrawn || view.renderer.needsRefinement || view.power != .on else { return }
        do {
            try view.show(layout) { engine.neighbourLayouts() }
            view.power = .on
            view.lastDrawn = layout
            view.redraw = false
            // With "frame N visible at", how long the daemon took from a flip to the next commit
            // (the rest, to the flip after, is the driver's).
            Log.debug("frame committed at \(loop.time.now())")
        } catch {
            Log.error("presenting a frame on \(view.output.summary): \(error)")
        }
    }

    private func switchOff(_ view: ScreenView) {
        guard view.power != .off else { return }
        do {
            _ = try view.output.commit(.off, .apply)
            view.power = .off
            view.background = nil
        } catch {
            Log.error("switching off \(view.output.summary): \(error)")
        }
    }

    private func armTimer() {
        var next: Double?
        if let holdUntil = pacing.holdUntil {
            next = holdUntil
        } else if engine.isMoving, let leader {
            // A pending flip drives the next frame; if none is pending (the layout did not
            // change this instant), look again one refresh later. With several screens, a
            // leader whose flip does not complete (a screen gone dark mid-frame) must not
            // stop the others: they go on at a quarter of the rate.
            let refresh = leader.output.refreshInterval
            next = !screensOn ? loop.time.now() + Self.darkStep
                : leader.output.isReady ? loop.time.now() + refresh
                : views.count > 1 ? loop.time.now() + 4 * refresh : nil
        } else if engine.isMoving {
            next = loop.time.now() + Self.darkStep
        } else {
            next = engine.nextDeadline
        }
        timer.schedule(at: next)
    }

    /// Queues the engine's events; they are handed out once the current handler (a tick, a
    /// touch, a control request) has returned.
    private func report(_ new: [CarouselEvent]) {
        guard !new.isEmpty else { return }
        if events.isEmpty { loop.post { [weak self] in self?.deliverEvents() } }
        events += new
    }

    private func deliverEvents() {
        let batch = events
        events.removeAll()
        guard !stopped else { return }
        for event in batch { delegate?.daemon(self, reported: event) }
    }
}
