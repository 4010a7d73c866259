import CInput
import Glibc

/// A timerfd on CLOCK_REALTIME armed at absolute wall-clock times. With
/// TFD_TIMER_CANCEL_ON_SET it also wakes when the clock is stepped (the first NTP sync after
/// boot, `date -s`): the read then fails with ECANCELED, and the synced screen re-aligns at once.
package final class RealtimeTimer {
    private let timer: OwnedDescriptor

    package enum Expiry: Equatable {
        /// The armed time has come.
        case due
        /// The wall clock was set: every wall-clock deadline must be worked out again.
        case clockStepped
        /// Nothing (a spurious wakeup).
        case none
    }

    package init() throws {
        timer = try OwnedDescriptor("timerfd_create") {
            timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        }
    }

    package var fd: Int32 { timer.rawValue }

    /// Arms the timer for `time`, seconds since 1970 (a time in the past fires at once).
    package func arm(at time: Double) throws {
        var spec = itimerspec()
        let t = max(time, 1e-9)
        spec.it_value.tv_sec = Int(t.rounded(.down))
        spec.it_value.tv_nsec = max(1, Int((t - t.rounded(.down)) * 1e9))
        try syscall("timerfd_settime") {
            timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &spec, nil)
        }
    }

    /// Consumes the wakeup and says why it came.
    package func acknowledge() -> Expiry {
        var expirations: UInt64 = 0
        let got = withUnsafeMutableBytes(of: &expirations) { read(fd, $0.baseAddress, $0.count) }
        if got == MemoryLayout<UInt64>.size { return .due }
        return got < 0 && errno == ECANCELED ? .clockStepped : .none
    }

    /// Seconds since 1970, now.
    package static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
