import CarouselCore
/// The protocol's 32-bit millisecond timestamps on the daemon's monotonic clock.
///
/// Compositors (weston, wlroots) stamp input and frame callbacks with CLOCK_MONOTONIC in ms,
/// truncated to 32 bits; the protocol does not promise that base. When the stamps fit the
/// monotonic clock they are used as they are (the cycle of 2^32 ms found from `now`); otherwise
/// they are moved onto it by a fixed offset, which keeps their differences (the finger's
/// velocity) exact. A stamp that lands in the future or far in the past re-anchors.
package struct WaylandClock {
    /// 2^32 ms, in seconds: the 49.7-day cycle of the protocol's stamps.
    package static let cycle = 4_294_967.296
    /// How old an event may be (queued while a frame was drawn) and still keep the anchor.
    package static let maxAge = 5.0
    private var offset: Double?

    package mutating func seconds(ms: UInt32, now: Double) -> Double {
        let stamp = Double(ms) / 1000
        func plausible(_ t: Double) -> Bool { t <= now + 0.002 && t >= now - Self.maxAge }
        if let offset, plausible(stamp + offset) { return stamp + offset }
        let base = (now / Self.cycle).rounded(.down) * Self.cycle
        for candidate in [base, base - Self.cycle] where plausible(stamp + candidate) {
            offset = candidate
            return stamp + candidate
        }
        offset = now - stamp
        return now
    }
}
