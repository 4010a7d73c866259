/// What a loop tells the one observing it (`EventLoop.observer`): each wakeup, each handler it
/// runs (`ran` runs it), and the end of the turn. What counts as animating is not the loop's
/// question: the parts that animate say so to the observer (`animating`).
package protocol LoopObserver: AnyObject {
    /// The loop woke at `time` from a wait armed for `sleptUntil` (nil: none, or no wait).
    func woke(at time: Double, sleptUntil: Double?)
    /// Runs `work`, one handler of this turn named `name`.
    func ran(_ name: String, _ work: () -> Void)
    /// The turn's handlers have all run.
    func turnEnded()
    /// `who` (a carousel) animates on a lit screen from now on, or no longer.
    func animating(_ who: ObjectIdentifier, _ isAnimating: Bool)
}

/// The longest time between two wakeups while animating, and what of it was the daemon's own.
package struct AnimatingGaps: Equatable {
    /// As the loop saw it.
    package var longest = 0.0
    /// Without the kernel's lateness in waking the loop at the deadline it slept to: how long
    /// the daemon itself held the loop (handlers) or chose to sleep.
    package var longestOwn = 0.0
    /// The latest the kernel woke the loop after that deadline (no CPU given to it in time).
    package var latestWake = 0.0
    /// What the gap of `longestOwn` was made of, as the hitch log line says it.
    package var longestOwnParts = ""
}

/// Measures how long the loop went without waking while something animated: how late a frame
/// could be because a handler held the loop (the soak test's "loop stall"), and says so in
/// the log when it is a visible hitch. The daemon's loop observer. A class: a handler run by
/// `ran` may itself ask for the longest gap (SIGUSR1).
package final class StallMeter: LoopObserver {
    /// The loop's clock (a test's, which a slow handler advances instead of sleeping), read
    /// coarse: a stall is a tenth of a second, a tick a few milliseconds.
    private let time: TimeSource
    /// Since the last `takeGaps` or `takeLongestGap`.
    package private(set) var gaps = AnimatingGaps()
    package var longestGap: Double { gaps.longest }
    private var lastAnimatingWake: Double?
    /// The parts animating now (`animating`), and when the current turn woke.
    private var animatingParts = Set<ObjectIdentifier>()
    private var turnWoke: Double?
    /// How long the handlers of the previous wakeup ran, and which of them ran longest.
    private var lastTurnBusy = 0.0
    private var slowest: (name: String, seconds: Double)?
    /// During a turn, when the last handler run at the top level ended (the turn's wakeup
    /// before the first): the next one starts then, with no clock read of its own.
    private var mark: Double?
    /// How many `timed` calls are running (a timer fired inside posted work is timed on its own).
    private var depth = 0

    package init(time: TimeSource) { self.time = time }

    package func takeLongestGap() -> Double { takeGaps().longest }

    package func takeGaps() -> AnimatingGaps {
        defer { gaps = AnimatingGaps() }
        return gaps
    }

    /// `sleptUntil`: the deadline the loop's wait was armed for (nil: none, or no wait), from
    /// which a later wakeup is the kernel's lateness. Read coarse, `time` may be a tick behind:
    /// the lateness is never overstated.
    package func woke(at time: Double, sleptUntil: Double?) {
        if let last = lastAnimatingWake {
            let late = sleptUntil.map { max(0, time - $0) } ?? 0
            gaps.longest = max(gaps.longest, time - last)
            gaps.latestWake = max(gaps.latestWake, late)
            if time - last - late > gaps.longestOwn {
                gaps.longestOwn = time - last - late
                gaps.longestOwnParts = parts(of: time - last, late: late)
            }
            // A tenth of a second without a frame is a visible hitch: say so, and whether the loop
            // was busy (a handler) or asleep (nothing woke it, or no CPU was given to it).
            if time - last > 0.1 {
                Log.notice(formatted("loop stalled %.0f ms while animating (", (time - last) * 1000)
                           + parts(of: time - last, late: late) + ")")
            }
        }
        slowest = nil
        mark = time
        turnWoke = time
    }

    /// "busy 8 ms, longest 8 ms in headless flip; asleep 16 ms, woken 0 ms after its deadline"
    private func parts(of gap: Double, late: Double) -> String {
        let slow = slowest.map { formatted(", longest %.0f ms in ", $0.seconds * 1000) + $0.name } ?? ""
        return formatted("busy %.0f ms", lastTurnBusy * 1000) + slow
            + formatted("; asleep %.0f ms, woken %.0f ms after its deadline", (gap - lastTurnBusy) * 1000, late * 1000)
    }

    /// Runs `work`, remembering it if it is the slowest of this turn.
    package func ran(_ name: String, _ work: () -> Void) {
        let start = depth == 0 ? mark ?? time.coarseNow() : time.coarseNow()
        depth += 1
        work()
        depth -= 1
        let end = time.coarseNow()
        if depth == 0, mark != nil { mark = end }
        if end - start > (slowest?.seconds ?? 0) { slowest = (name, end - start) }
    }

    package func turnEnded() {
        guard let woke = turnWoke else { return }
        lastAnimatingWake = animatingParts.isEmpty ? nil : woke
        lastTurnBusy = (mark ?? time.coarseNow()) - woke
        mark = nil
        turnWoke = nil
    }

    package func animating(_ who: ObjectIdentifier, _ isAnimating: Bool) {
        if isAnimating { animatingParts.insert(who) } else { animatingParts.remove(who) }
    }
}
