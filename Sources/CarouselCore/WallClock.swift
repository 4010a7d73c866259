import Glibc

/// CLOCK_REALTIME in seconds since 1970: the clock of schedules, dayparts and wall-clock sync.
/// It may be set (NTP's first sync, `date -s`); `WallClockTimer` notices when it is.
package enum WallClock {
    package static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
