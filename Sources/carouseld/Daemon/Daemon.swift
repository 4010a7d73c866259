import CarouselEngine
import Glibc

/// The running carousel: feeds time to the engine and puts its layouts on the output.
///
/// Pacing: while something moves, the next frame is composed when the previous flip
/// completes, with the flip's timestamp as `now`; a second flip is never queued. On displays
/// whose flips complete at once (virtual GPUs), frames are held back to the mode's refresh
/// with the timer. While settled nothing is drawn or committed, and the only timer is the
/// engine's next deadline (auto-advance).
final class Daemon {
    private(set) var engine: CarouselEngine
    let output: DisplayOutput
    let renderer: FrameRenderer
    private let loop: EventLoop
    private let timer: DeadlineTimer
    private var lastDrawn: FrameLayout?
    private var fullRedraw = true
    private var lastPresented: Double?
    /// Frames committed so far, and the time the first one became visible.
    private(set) var framesPresented = 0
    private(set) var firstFrameTime: Double?
    /// Called for each engine event (logs, systemd status).
    var onEvent: ((CarouselEvent) -> Void)?
    /// Called once, when the first frame is on screen (READY=1).
    var onFirstFrame: ((Double) -> Void)?

    init(engine: CarouselEngine, output: DisplayOutput, renderer: FrameRenderer, loop: EventLoop) throws {
        self.engine = engine; self.output = output; self.renderer = renderer; self.loop = loop
        timer = try DeadlineTimer()
        try loop.add(fd: timer.fd) { [unowned self] in
            if timer.acknowledge() { tick(now: MonotonicClock.now()) }
        }
        output.onPresented = { [unowned self] time in presented(at: time) }
        output.onScreenChanged = { [unowned self] in screenChanged() }
        try output.attach(to: loop)
        if let size = output.size { self.engine.resize(size) }
    }

    /// Draws the first frame (if a screen is there) and arms the engine's deadline.
    func start() {
        tick(now: MonotonicClock.now())
    }

    /// Lets the shell change the engine (touch frames, reconfigure) and then redraw.
    func updateEngine(now: Double, _ change: (inout CarouselEngine) -> [CarouselEvent]) {
        report(change(&engine))
        tick(now: now)
    }

    /// Forces a complete redraw (an image arrived, the config changed).
    func invalidate() {
        fullRedraw = true
        tick(now: MonotonicClock.now())
    }

    // MARK: - pacing

    /// Advances the engine to `now`, draws if the layout changed and the display is free,
    /// and arms the timer for whatever must happen next.
    private func tick(now: Double) {
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
        let previous = lastPresented
        lastPresented = time
        // A flip that completed well before one refresh period: hold the next frame back.
        if engine.isMoving, let previous, time - previous < output.refreshInterval / 2 {
            try? timer.arm(at: previous + output.refreshInterval)
            return
        }
        tick(now: time)
    }

    private func screenChanged() {
        if let size = output.size {
            Log.info("screen \(output.summary)")
            engine.resize(size)
        }
        fullRedraw = true
        lastPresented = nil
        if output.canPresent { tick(now: MonotonicClock.now()) }
    }

    private func drawIfChanged() {
        guard output.canPresent, output.size != nil else { return }
        let layout = engine.layout()
        guard fullRedraw || layout != lastDrawn else { return }
        do {
            try output.present { target in renderer.draw(layout, into: target) }
            lastDrawn = layout
            fullRedraw = false
        } catch {
            Log.error("presenting a frame: \(error)")
        }
    }

    private func armTimer() {
        let next: Double?
        if engine.isMoving {
            // A pending flip drives the next frame; if none is pending (the layout did not
            // change this instant, or no screen), look again one refresh later.
            next = output.canPresent ? MonotonicClock.now() + output.refreshInterval : nil
        } else {
            next = engine.nextDeadline
        }
        do { try timer.arm(at: next) } catch { Log.error("arming the timer: \(error)") }
    }

    private func report(_ events: [CarouselEvent]) {
        for event in events { onEvent?(event) }
    }
}
