#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which playlist item a synced screen shows at a wall-clock time. Every box with the same
/// playlist and durations shows item k in the same window: the cycle (all durations added up)
/// repeats from `epoch`, so two NTP-synced boxes page within the same frame with no protocol
/// between them. Times are seconds since 1970 (the realtime clock), passed in.
public struct WallClockSchedule: Sendable, Equatable {
    public let epoch: Double
    /// Seconds each item is shown, all positive.
    public let durations: [Double]
    public let cycle: Double

    /// Nil when nothing pages (no items, or no positive duration for some item).
    public init?(epoch: Double, interval: Double, itemDurations: [Double?], itemCount: Int) {
        let durations = (0..<max(0, itemCount)).map { i -> Double in
            if itemDurations.indices.contains(i), let d = itemDurations[i], d > 0, d.isFinite { return d }
            return interval
        }
        guard !durations.isEmpty, durations.allSatisfy({ $0 > 0 && $0.isFinite }), epoch.isFinite else { return nil }
        self.epoch = epoch
        self.durations = durations
        cycle = durations.reduce(0, +)
    }

    /// The item shown at `time` and its window.
    public func slot(at time: Double) -> (index: Int, start: Double, end: Double) {
        let elapsed = time - epoch
        let cycles = (elapsed / cycle).rounded(.down)
        var start = epoch + cycles * cycle
        var offset = elapsed - cycles * cycle
        for (index, duration) in durations.enumerated() {
            if offset < duration || index == durations.count - 1 { return (index, start, start + duration) }
            offset -= duration
            start += duration
        }
        return (0, start, start + durations[0])   // unreachable: the loop returns on the last item
    }

    /// The item a screen should be on at `time` when a page change takes `lead` seconds to come
    /// to rest: the change starts `lead` early and settles exactly at the boundary.
    public func target(at time: Double, lead: Double) -> Int { slot(at: time + lead).index }

    /// When `target` changes next after `time`.
    public func nextChange(after time: Double, lead: Double) -> Double { slot(at: time + lead).end - lead }
}

extension CarouselEngine {
    /// Keeps a synced screen on the wall clock's item `target`: one step away animates (a normal
    /// page change, or a small clock step), farther cuts, unless `animateFarther` (back to the
    /// clock after a touch, where the move is expected).
    public mutating func follow(item target: Int, now: Double, animateFarther: Bool = false) -> [CarouselEvent] {
        guard itemCount > 0 else { return update(now: now) }
        let count = itemCount
        let distance = abs(floorMod(target - selectedIndex + count / 2, count) - count / 2)
        return show(item: target, animated: distance <= 1 || animateFarther, now: now)
    }
}
