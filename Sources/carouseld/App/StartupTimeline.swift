import CarouselCore
/// Milestones of the start, in ms after exec, for the first-frame log line:
/// "main 40 ms, config loaded 52 ms, display open 130 ms, carousels made 140 ms, cards decoded
/// 300 ms, committed 310 ms" (no "cards decoded" when a kept frame went first).
struct StartupTimeline: CustomStringConvertible {
    private var milestones: [String] = []

    init() { reached("main") }

    mutating func reached(_ name: String, at time: Double = MonotonicClock.now()) {
        milestones.append("\(name) \(sinceExec(time))")
    }

    /// "412 ms": how long after exec `time` (monotonic) was.
    func sinceExec(_ time: Double) -> String {
        ExecClock.sinceExec(atMonotonic: time).map { formatted("%.0f ms", $0 * 1000) } ?? "? ms"
    }

    var description: String { milestones.joined(separator: ", ") }
}
