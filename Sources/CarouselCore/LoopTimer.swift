/// A deadline on the event loop: `action(now)` runs on the loop once the loop's clock has
/// reached `deadline`. The token is the registration: dropping it (or the object that keeps
/// it) takes the timer off the loop, so no timer outlives what it would call.
///
/// Process deadlines (the watchdog, the reload debounce, sync resume, input time-outs) and
/// each carousel's frame pacing are all timers of this one kind; the loop keeps them in a
/// deadline heap and a single timerfd armed at the earliest of them.
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
        loop?.rescheduled(self)
    }

    /// Called by the loop, which has taken the deadline off: the action may schedule the timer again.
    package func fire(now: Double) {
        deadline = nil
        action(now)
    }

    deinit { loop?.unregister(self) }
}

/// A deadline on the wall clock (CLOCK_REALTIME, seconds since 1970): the screen schedule, the
/// next daypart, a wall-clock sync's next page change. The loop keeps one realtime timerfd armed
/// at the earliest of them with TFD_TIMER_CANCEL_ON_SET, so a clock that is set (the first NTP
/// sync after boot, `date -s`) wakes it too: then every scheduled wall-clock timer runs with
/// `.clockSet` and works its deadline out again. Dropping the token takes it off the loop.
package final class WallClockTimer {
    package enum Cause: Equatable {
        /// The deadline has come; the timer is no longer scheduled.
        case due
        /// The wall clock was set; the deadline stays as it was unless the action moves it.
        case clockSet
    }

    package let name: String
    /// When the action is due, seconds since 1970; nil while not scheduled.
    package private(set) var deadline: Double?
    fileprivate let action: (Cause) -> Void
    private weak var loop: EventLoop?

    package init(loop: EventLoop, name: String, action: @escaping (Cause) -> Void) {
        self.loop = loop; self.name = name; self.action = action
        loop.register(self)
    }

    /// Schedules the action at `time`, seconds since 1970 (a time already past runs at once),
    /// or unschedules it with nil. The kernel timer is armed before this returns: a clock set
    /// from then on is noticed (the sync reads the clock again after arming, for a step
    /// between its read and the arm).
    package func schedule(at time: Double?) {
        deadline = time
        loop?.rescheduled(self)
    }

    package func fire(_ cause: Cause) {
        if cause == .due { deadline = nil }
        action(cause)
    }

    deinit { loop?.unregister(self) }
}
