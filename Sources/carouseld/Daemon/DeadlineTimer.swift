import CInput
import Glibc

/// A timerfd on CLOCK_MONOTONIC armed at an absolute time: the one timer the daemon keeps
/// while settled (the auto-advance deadline), also used to pace frames on displays whose
/// flips complete faster than their refresh rate.
final class DeadlineTimer {
    private let timer: OwnedDescriptor
    /// The armed deadline in monotonic seconds, nil when disarmed.
    private(set) var deadline: Double?

    init() throws {
        timer = try OwnedDescriptor("timerfd_create") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        }
    }

    /// Readable once the deadline has passed.
    var fd: Int32 { timer.rawValue }

    /// Arms the timer for `time` (monotonic seconds), or disarms it when nil. A time in the
    /// past fires at once.
    func arm(at time: Double?) throws {
        guard time != deadline else { return }
        var spec = itimerspec()
        if let time {
            // it_value 0 would disarm: the earliest representable expiry fires immediately instead.
            let t = max(time, 1e-9)
            spec.it_value.tv_sec = Int(t.rounded(.down))
            spec.it_value.tv_nsec = max(1, Int((t - t.rounded(.down)) * 1e9))
        }
        try syscall("timerfd_settime") { timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
        deadline = time
    }

    /// Consumes the expiry so the descriptor stops being readable; true if it had fired.
    @discardableResult
    func acknowledge() -> Bool {
        var expirations: UInt64 = 0
        let fired = timer.readRecord(&expirations)
        if fired { deadline = nil }
        return fired
    }
}
