import Glibc

/// CLOCK_MONOTONIC in seconds: the clock of DRM flip timestamps, timerfd and libinput events,
/// so every `now` the engine sees is on one time line.
package enum MonotonicClock {
    package static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
