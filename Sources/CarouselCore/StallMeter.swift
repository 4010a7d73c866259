/// Measures how long the loop went without waking while something animated: how late a frame
/// could be because a handler held the loop (the soak test's "loop stall"), and says so in
/// the log when it is a visible hitch. A class: a handler run by `timed` may itself ask for
/// the longest gap (SIGUSR1).
package final class StallMeter {
    /// The loop's clock (a test's, which a slow handler advances instead of sleeping), read
    /// coarse: a stall is a tenth of a second, a tick a few milliseconds.
    private let time: TimeSource
    /// The longest time between two wakeups while animating, since the last `takeLongestGap`.
    package private(set) var longestGap = 0.0
    private var lastAnimatingWake: Double?
    /// How long the handlers of the previous wakeup ran, and which of them ran longest.
    private var lastTurnBusy = 0.0
    private var slowest: (name: String, seconds: Double)?
    /// During a turn, when the last handler run at the top level ended (the turn's wakeup
    /// before the first): the next one starts then, with no clock read of its own.
    private var mark: Double?
    /// How many `timed` calls are running (a timer fired inside posted work is timed on its own).
    private var depth = 0

    package init(time: TimeSource) { self.time = time }

    package func takeLongestGap() -> Double {
        defer { longestGap = 0 }
        return longestGap
    }

    package func woke(at time: Double) {
        if let last = lastAnimatingWake {
            longestGap = max(longestGap, time - last)
            // A tenth of a second without a frame is a visible hitch: say so, and whether the loop
            // was busy (a handler) or asleep (nothing woke it, or no CPU was given to it).
            if time - last > 0.1 {
                let slow = slowest.map { formatted(", longest %.0f ms in ", $0.seconds * 1000) + $0.name } ?? ""
                Log.notice(formatted("loop stalled %.0f ms while animating (busy %.0f ms",
                                     (time - last) * 1000, lastTurnBusy * 1000) + slow
                           + formatted("; asleep %.0f ms)", (time - last - lastTurnBusy) * 1000))
            }
        }
        slowest = nil
        mark = time
    }

    /// Runs `work`, remembering it if it is the slowest of this turn.
    package func timed(_ name: String, _ work: () -> Void) {
        let start = depth == 0 ? mark ?? time.coarseNow() : time.coarseNow()
        depth += 1
        work()
        depth -= 1
        let end = time.coarseNow()
        if depth == 0, mark != nil { mark = end }
        if end - start > (slowest?.seconds ?? 0) { slowest = (name, end - start) }
    }

    package func turnEnded(at woke: Double, animating: Bool) {
        lastAnimatingWake = animating ? woke : nil
        lastTurnBusy = (mark ?? time.coarseNow()) - woke
        mark = nil
    }
}
