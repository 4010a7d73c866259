/// A deadline on the event loop: `action(now)` runs on the loop once the loop's clock has
/// reached `deadline`. The token is the registration: dropping it (or the object that keeps
/// it) takes the timer off the loop, so no timer outlives what it would call.
///
/// Process deadlines (the watchdog, the reload debounce, sync resume, input time-outs) and
/// each carousel's frame pacing are all timers of this one kind; the loop keeps a single
/// timerfd armed at the earliest of them.
package final class LoopTimer {
    package let name: String
    /// When the action is due (the loop's monotonic clock); nil while not scheduled.
    package private(set) var deadline: Double?
    fileprivate let action: (Double) -> Void
    private weak var loop: EventLoop?

    package init(loop: EventLoop, name: String, action: @escaping (Double) -> Void) {
        self.loop = loop; self.name = name; self.action = action
        loop.register(self)
    }

    /// Schedules the action at `time` (a time already past runs on the loop's next turn),
    /// or unschedules it with nil.
    package func schedule(at time: Double?) {
        deadline = time
    }

    /// Takes the deadline off before running: the action may schedule the timer again.
    package func fire(now: Double) {
        deadline = nil
        action(now)
    }

    deinit { loop?.unregister(self) }
}

/// A descriptor watched by the event loop: `handler` runs whenever it is readable, until the
/// token is dropped. Drop it before closing the descriptor (the owner declares the watch
/// after the descriptor it watches, or drops it first).
package final class Watch {
    package let fd: Int32
    package let name: String
    fileprivate let handler: () -> Void
    private weak var loop: EventLoop?

    package init(loop: EventLoop, fd: Int32, name: String, handler: @escaping () -> Void) throws {
        self.loop = loop; self.fd = fd; self.name = name; self.handler = handler
        try loop.register(self)
    }

    package func run() { handler() }

    deinit { loop?.unregister(self) }
}
