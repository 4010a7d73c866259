import CarouselCore
/// Milestones of the start, in ms after exec, for the first-frame log line:
/// "main 40 ms, config loaded 52 ms, display open 130 ms".
struct StartupTimeline: CustomStringConvertible {
    private var milestones: [String] = []

    init() { reached("main") }

    mutating func reached(_ name: String) {
        milestones.append("\(name) \(sinceExec(MonotonicClock.now()))")
    }

    /// "412 ms": how long after exec `time` (monotonic) was.
    func sinceExec(_ time: Double) -> String {
        ExecClock.sinceExec(atMonotonic: time).map { formatted("%.0f ms", $0 * 1000) } ?? "? ms"
    }

    var description: String { milestones.joined(separator: ", ") }
}
