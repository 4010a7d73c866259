import CarouselCore
/// Milestones of the start, in ms after exec, for the first-frame log line:
/// "main 40 ms, config loaded 52 ms, display open 130 ms, carousels made 140 ms, parts made
/// 150 ms, cards decoded 300 ms, drawing 301 ms, composed 305 ms, committed 310 ms" (no "cards
/// decoded" or "composed" when a kept frame went first).
struct StartupTimeline: CustomStringConvertible {
    /// Each milestone's monotonic time: read on the way to the first frame, put into words only
    /// for the log line after it (reading /proc and formatting cost more than the rest of the
    /// bookkeeping).
    private var milestones: [(name: String, time: Double)] = []

    init() { reached("main") }

    mutating func reached(_ name: String, at time: Double = MonotonicClock.now()) {
        milestones.append((name, time))
    }

    /// "412 ms": how long after exec `time` (monotonic) was.
    func sinceExec(_ time: Double) -> String { Self.milliseconds(ExecClock.sinceExec(atMonotonic: time)) }

    /// Exec's offset from the monotonic clock is read once for all of them.
    var description: String {
        let exec = ExecClock.sinceExec(atMonotonic: 0)
        // In time order: a kept start frame is committed before the carousels are made.
        return milestones.sorted { $0.time < $1.time }.map { milestone in "\(milestone.name) \(Self.milliseconds(exec.map { $0 + milestone.time }))" }
            .joined(separator: ", ")
    }

    private static func milliseconds(_ seconds: Double?) -> String { seconds.map { formatted("%.0f ms", $0 * 1000) } ?? "? ms" }
}
