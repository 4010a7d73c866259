import CarouselCore
import Glibc

/// `metrics_file`: the Prometheus textfile that node-exporter's textfile collector serves
/// (`/var/lib/prometheus/node-exporter/carouseld.prom`). Rewritten whole (`WholeFile`) when the status changes, at most once a second, and every 15 s besides so memory,
/// loop gap and the clock stay current and a stale file shows the daemon is gone.
final class MetricsFile {
    static let minimumInterval = 1.0
    static let heartbeat = 15.0

    let path: String
    private let status: () -> DaemonStatus
    /// Whether the card cache fell back to /run (nil: no card cache); decided at start.
    private let cacheFallback: Bool?
    private let loop: EventLoop
    /// The loop's gaps while animating; nil: none measured (0 in the file).
    private let stalls: StallMeter?
    private var timer: LoopTimer?
    private var lastWrite: Double?
    private var history = ShowingHistory()
    private let problems = WriteProblems()

    /// `status` is the daemon's status as `ctl status` gives it.
    init(path: String, loop: EventLoop, stalls: StallMeter? = nil, cacheFallback: Bool? = nil,
         status: @escaping () -> DaemonStatus) {
        self.path = path; self.status = status; self.loop = loop; self.stalls = stalls; self.cacheFallback = cacheFallback
        timer = loop.timer("metrics file", owner: self) { $0.write(now: $1) }
        Log.info("metrics: \(path) (Prometheus textfile format)")
    }

    deinit { timer = nil }

    /// The status changed to `current` (as just published): written now, or a second after
    /// the last write.
    func changed(_ current: DaemonStatus) {
        history.observe(current, at: WallClock.now())
        let now = loop.time.now()
        guard let lastWrite, now - lastWrite < Self.minimumInterval else { return write(current, now: now) }
        let due = lastWrite + Self.minimumInterval
        if timer?.deadline.map({ $0 > due }) ?? true { timer?.schedule(at: due) }
    }

    /// Writes `current`, or the status now (the timer's writes, when nothing was published).
    private func write(_ current: DaemonStatus? = nil, now: Double) {
        lastWrite = now
        let current = current ?? {
            let fresh = status()
            history.observe(fresh, at: WallClock.now())
            return fresh
        }()
        let snapshot = MetricsSnapshot(status: current, decodeFailures: history.failureCount, lastPageChange: history.lastPageChange,
                                       clockSynchronised: current.display.clockSynchronised,
                                       longestLoopGap: stalls?.longestGap ?? 0, residentBytes: PeakMemory.resident(),
                                       health: BoxHealth.read(), cacheFallback: cacheFallback)
        problems.note(WholeFile.write(Array(MetricsText.render(snapshot).utf8), to: path, mode: 0o640), path: path)
        timer?.schedule(at: now + Self.heartbeat)
    }

    /// At stop: carouseld_up 0 would say "stopped", but a file left behind goes stale anyway;
    /// removing it makes node-exporter drop the series at once.
    func remove() { unlink(path) }
}

/// What the status alone does not keep: when the pictures on screen last changed, and how
/// many pictures have failed since start (each once).
struct ShowingHistory {
    private var shown: [Int]?
    private(set) var lastPageChange: Double?
    private var failures: Set<String> = []
    private(set) var failureCount = 0

    mutating func observe(_ status: DaemonStatus, at realtime: Double) {
        let indexes = status.showing.outputs.map(\.index)
        if let shown, shown != indexes { lastPageChange = realtime }
        shown = indexes
        for failed in status.showing.failed ?? [] where failures.insert(failed).inserted { failureCount += 1 }
    }
}
