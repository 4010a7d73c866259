import Glibc

/// CLOCK_MONOTONIC in seconds: the clock of DRM flip timestamps, timerfd and libinput events,
/// so every `now` the engine sees is on one time line.
package enum MonotonicClock {
    package static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// CLOCK_MONOTONIC_COARSE: the time of the last tick, which the vDSO reads from memory.
    /// CLOCK_MONOTONIC is a system call, and an HPET read, where the clock source has no vDSO
    /// (an HPET machine, a VM under emulation), and the loop reads the time several times a frame.
    package static func coarseNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// How far the coarse clock may lag: it advances by whole ticks (its resolution), and the
    /// kernel brings it up to date on every interrupt, an idle CPU's included. Two ticks, for a
    /// margin; without a resolution, unbounded (every question goes to the fine clock).
    package static let coarseLag: Double = {
        var ts = timespec()
        guard clock_getres(CLOCK_MONOTONIC_COARSE, &ts) == 0 else { return .infinity }
        return 2 * (Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9)
    }()
}

/// CLOCK_REALTIME in seconds since 1970: the clock of schedules, dayparts and wall-clock sync.
/// It may be set (NTP's first sync, `date -s`); `WallClockTimer` notices when it is.
package enum WallClock {
    package static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
