import CarouselEngine
import Glibc

/// The running carousel: feeds time to the engine and puts its layouts on the output.
///
/// Pacing: while something moves, the next frame is composed when the previous flip
/// completes, with the flip's timestamp as `now`; a second flip is never queued. On displays
/// whose flips complete at once (virtual GPUs), frames are held back to the mode's refresh
/// with the timer. While settled nothing is drawn or committed, and the only timer is the
/// earliest deadline: the engine's auto-advance, or one registered with `addWakeup`.
final class Daemon {
    private(set) var engine: CarouselEngine
    let output: DisplayOutput
    private(set) var renderer: FrameRenderer
    private let loop: EventLoop
    private let timer: DeadlineTimer
    private var wakeups: [(deadline: () -> Double?, action: (Double) -> Void)] = []
    private var lastDrawn: FrameLayout?
    private var redraw = true
    private var tickPosted = false
    private var stopped = false
    private var holdUntil: Double?
    private var lastPresented: Double?
    /// Frames that became visible so far, and the time the first one did.
    private(set) var framesPresented = 0
    private(set) var firstFrameTime: Double?
    /// Called for each engine event (logs, systemd status).
    var onEvent: ((CarouselEvent) -> Void)?
    /// Called once, when the first frame is on screen (READY=1).
    var onFirstFrame: ((Double) -> Void)?
    /// Called with the new picture size when a screen appears or changes mode (touch mapping).
    var onResize: ((Size) -> Void)?
    /// True while a finger is down. The engine's clock then advances only with touch frames:
    /// their kernel times trail the wall clock (more so while a frame is being drawn), and a
    /// flip time or timer pushed into `now` would stamp the touches still queued too late,
    /// which reads as a finger that rested before lifting (no fling).
    var fingersDown: Bool { engine.hasFingersDown }

    init(engine: CarouselEngine, output: DisplayOutput, renderer: FrameRenderer, loop: EventLoop) throws {
        self.engine = engine; self.output = output; self.renderer = renderer; self.loop = loop
        timer = try DeadlineTimer()
        try loop.add(fd: timer.fd, name: "frame and wakeup timer") { [unowned self] in
            if timer.acknowledge() { tick(now: MonotonicClock.now()) }
        }
        output.onPresented = { [unowned self] time in presented(at: time) }
        output.onScreenChanged = { [unowned self] in screenChanged() }
        try output.attach(to: loop)
        if let size = output.size { self.engine.resize(size) }
    }

    /// Draws the first frame (if a screen is there) and arms the first deadline.
    func start() { tick(now: MonotonicClock.now()) }

    // MARK: - for the other parts of the shell

    /// Applies a change to the engine (a touch frame, a key) and reports its events; the
    /// resulting frame is drawn once the current handler returns.
    func updateEngine(_ change: (inout CarouselEngine) -> [CarouselEvent]) {
        report(change(&engine))
        scheduleTick()
    }

    /// Runs `body` on the engine (reconfigure, reload); call `setNeedsRedraw` if it changed.
    func modifyEngine<T>(_ body: (inout CarouselEngine) -> T) -> T { body(&engine) }

    /// Runs a tick (due wakeups, engine, frame) once the current handler returns.
    func wake() { scheduleTick() }

    /// No more ticks, frames or timers: the screen is about to be given back.
    func stop() {
        stopped = true
        try? timer.arm(at: nil)
    }

    /// Draws the next frame even if the layout did not change (an image arrived).
    func setNeedsRedraw() {
        redraw = true
        scheduleTick()
    }

    /// Uses a new renderer (the config changed) and redraws everything with it.
    func replaceRenderer(_ renderer: FrameRenderer) {
        self.renderer = renderer
        setNeedsRedraw()
    }

    /// Calls `action(now)` from the loop once `deadline()` has passed; the loop sleeps no
    /// longer than the earliest deadline. For config reload debounce and the watchdog.
    func addWakeup(deadline: @escaping () -> Double?, action: @escaping (Double) -> Void) {
        wakeups.append((deadline, action))
        scheduleTick()
    }

    // MARK: - pacing

    private func scheduleTick() {
        guard !tickPosted else { return }
        tickPosted = true
        loop.post { [unowned self] in tick(now: MonotonicClock.now()) }
    }

    /// Runs due wakeups, advances the engine to `now`, draws if something changed and the
    /// display is free, and arms the timer for whatever must happen next.
    private func tick(now time: Double) {
        tickPosted = false
        guard !stopped else { return }
        // A touch frame's kernel time can be a little later than the flip that follows it.
        let now = fingersDown ? engine.now : max(time, engine.now)
        // Wakeups (watchdog, reload) are due by the real clock: with a finger down the engine's
        // clock lags it, and while no frame can be shown (no screen yet) nothing else ticks.
        for wakeup in wakeups {
            if let deadline = wakeup.deadline(), deadline <= time { wakeup.action(now) }
        }
        if let hold = holdUntil, now < hold { armTimer(); return }
        holdUntil = nil
        report(engine.update(now: now))
        drawIfChanged()
        armTimer()
    }

    private func presented(at time: Double) {
        framesPresented += 1
        if firstFrameTime == nil {
            firstFrameTime = time
            onFirstFrame?(time)
        }
        Log.debug("frame \(framesPresented) visible at \(time)")
        // A flip that completed well before one refresh period after the previous one (a
        // virtual GPU): hold the next frame until that "vblank", and count from there.
        let refresh = output.refreshInterval
        if let previous = lastPresented, time - previous < refresh * 0.9 {
            holdUntil = previous + refresh
            lastPresented = previous + refresh
        } else {
            lastPresented = time
        }
        tick(now: time)
    }

    private func screenChanged() {
        if let size = output.size {
            Log.info("screen \(output.summary)")
            engine.resize(size)
            onResize?(size)
        }
        renderer.invalidate()
        lastPresented = nil
        holdUntil = nil
        setNeedsRedraw()
    }

    private func drawIfChanged() {
        guard output.canPresent, output.size != nil else { return }
        let layout = engine.layout()
        // A fast frame sampled nearest is followed by the same layout drawn bilinear, so a
        // finger that stops dead never leaves a coarse frame on screen.
        guard redraw || layout != lastDrawn || renderer.needsRefinement else { return }
        do {
            try output.present { target in renderer.draw(layout, into: target) }
            lastDrawn = layout
            redraw = false
        } catch {
            Log.error("presenting a frame: \(error)")
        }
    }

    private func armTimer() {
        var next: Double?
        if let holdUntil {
            next = holdUntil
        } else if engine.isMoving {
            // A pending flip drives the next frame; if none is pending (the layout did not
            // change this instant, or no screen), look again one refresh later.
            next = output.canPresent ? MonotonicClock.now() + output.refreshInterval : nil
        } else {
            next = engine.nextDeadline
        }
        // Always, also while moving: a flip that never completes (a screen gone mid-frame) or
        // an engine that moves with no screen to show it must not starve the watchdog.
        for wakeup in wakeups {
            if let d = wakeup.deadline() { next = min(next ?? d, d) }
        }
        do { try timer.arm(at: next) } catch { Log.error("arming the timer: \(error)") }
    }

    private func report(_ events: [CarouselEvent]) {
        for event in events { onEvent?(event) }
    }
}
