import CarouselCore

/// When an output is ready for its next frame: the `frame` event, as wlroots' generic output
/// raises it for every backend. It comes right after each flip (`presented`), with the flip's
/// time, except that a flip completing well before a refresh after the previous one (a virtual
/// GPU, which flips at once) is held to the refresh it stands for. With nothing queued, a frame
/// asked for (`scheduleFrame`) comes from the clock's own timer a refresh later, as wlroots'
/// headless output does. The output's own events pass through in order, a flip's `presented`
/// before its `frame`, each posted to the loop as the outputs post theirs (the handler runs
/// from the loop, never inside the clock).
package final class FrameClock {
    private let output: DisplayOutput
    private let forward: OutputEventSink
    private var timer: LoopTimer?
    /// When the last frame counted as shown (a held flip counts at the refresh it stands for).
    private var lastPresented: Double?
    /// No frame before this time: the held flip's refresh.
    private var holdUntil: Double?
    /// A flip is held to its refresh: the next `frame` comes then, whoever asks sooner.
    package var holds: Bool { holdUntil != nil }

    /// Attaches `output` to `loop`; `events` hears its events and the clock's `frame`s until
    /// the output is detached or the clock stopped.
    package init(output: DisplayOutput, loop: EventLoop, events: @escaping (OutputEvent) -> Void) throws {
        self.output = output
        forward = OutputEventSink(loop: loop, handler: events)
        timer = loop.timer("frame clock", owner: self) { $0.timerFired(at: $1) }
        // The output holds this handler; the clock holds the output.
        try output.attach(to: loop) { [weak self] event in self?.handle(event) }
    }

    /// A frame is wanted: a queued flip brings it (or the hold, after it); while the output is
    /// free (the layout did not change this instant), the clock raises it a refresh from `now`.
    package func scheduleFrame(now: Double) {
        guard holdUntil == nil else { return }
        timer?.schedule(at: output.isReady ? now + output.refreshInterval : nil)
    }

    /// No frame is wanted any more (the strip rests): a held one still comes.
    package func cancelScheduledFrame() {
        guard holdUntil == nil else { return }
        timer?.schedule(at: nil)
    }

    /// Nothing more: the screen is about to be given back.
    package func stop() {
        holdUntil = nil
        timer?.schedule(at: nil)
    }

    private func handle(_ event: OutputEvent) {
        switch event {
        case .presented(let time):
            forward.emit(event)
            presented(at: time)
        case .changed:
            // A new mode or screen: its flips are counted afresh.
            lastPresented = nil
            stop()
            forward.emit(event)
        case .ended, .frame, .overwritten:
            forward.emit(event)
        }
    }

    private func presented(at time: Double) {
        let refresh = output.refreshInterval
        if let previous = lastPresented, time - previous < refresh * 0.9 {
            holdUntil = previous + refresh
            lastPresented = previous + refresh
            timer?.schedule(at: holdUntil)
        } else {
            lastPresented = time
            forward.emit(.frame(at: time))
        }
    }

    private func timerFired(at time: Double) {
        if let holdUntil {
            // With "frame committed at", the daemon's own part of a held frame (from its wake-up
            // to its commit) apart from how late the kernel woke it.
            Log.debug("hold until \(holdUntil) ended: woke at \(time)")
        }
        holdUntil = nil
        forward.emit(.frame(at: time))
    }
}
