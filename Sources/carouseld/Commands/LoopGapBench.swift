import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine
import FoundationEssentials
import Glibc

/// `carouseld bench --loop-gap SECONDS`: the soak's loop-gap check where its bound means
/// something. The whole daemon (config watcher and loads, the real decoders on their thread,
/// the engine, the compositor) runs on the host's clock with a headless 1920x1080 screen, while
/// the config changes every 2 s as in the VM soak (valid by rename, half-written then completed,
/// the playlist reordered) and a fling comes every 1.5 s. The loop's longest gap while animating,
/// the daemon's own part of it, must stay within the 50 ms the soak's issue asked (the VM soak
/// allows 300 ms: under TCG the same work takes about 20 times longer). Its own part leaves out
/// how late the kernel woke the loop after the deadline it slept to: on a shared host (CI's
/// virtual machine) a wait for a CPU is not the daemon's, and it is printed apart. The config
/// files are written on a thread of the bench's own, as the soak's shell writes them beside the
/// daemon, so the bench's file I/O does not count as the loop's.
struct LoopGapBench {
    /// The soak issue's 50 ms, which scripts/bench judges; CI passes a hang detector's bound.
    static let issueBound = 0.050
    var seconds: Double
    var media: String
    var bound = Self.issueBound

    /// Prints the figures and a PASS or FAIL line; true when within the bound.
    func run() throws -> Bool {
        let directory = try Self.temporaryDirectory()
        defer { _ = try? FileManager.default.removeItem(atPath: directory) }
        try write(config(spacing: 20), to: directory + "/carouseld.conf")
        let loop = try EventLoop()
        var backend: HeadlessBackend?
        let options = DaemonOptions(configDirectory: directory, controlPath: directory + "/control")
        let runner = try DaemonRunner(options, loop: loop) { shell, config, loop in
            let made = HeadlessBackend(shell, config: config, width: 1920, height: 1080, loop: loop)
            backend = made
            return made
        }
        var churn = Churn(directory: directory, bench: self)
        let churnWriter = BackgroundTask<Void>(name: "bench churn", loop: loop)
        var churnTimer: LoopTimer?
        churnTimer = loop.timer("bench: config churn") { now in
            let change = churn.next()
            churnWriter.start(change) {}
            churnTimer?.schedule(at: now + 2)
        }
        var flings = 0
        var fling = Fling()
        var touchTimer: LoopTimer?
        touchTimer = loop.timer("bench: touches") { now in
            touchTimer?.schedule(at: now + 1.0 / 60)
            guard let sink = backend?.feed.sink, let frame = fling.frame(at: now) else { return }
            if fling.isOver { flings += 1 }
            sink([(carousel: 0, action: .touch(frame))])
        }
        let warmUp = 3.0, start = MonotonicClock.now()
        let stalls = runner.publisher.stalls
        let measure = loop.timer("bench: start measuring") { _ in _ = stalls.takeGaps() }
        let end = loop.timer("bench: end") { _ in loop.stop() }
        measure.schedule(at: start + warmUp)
        end.schedule(at: start + warmUp + seconds)
        churnTimer?.schedule(at: start + warmUp)
        touchTimer?.schedule(at: start + warmUp)
        runner.start()
        try loop.run()
        let gaps = stalls.takeGaps()
        runner.stop(reason: "bench over")
        let line = formatted("longest loop gap while animating, the daemon's own, %.1f ms over %.0f s (%d config changes, %d flings; ",
                             gaps.longestOwn * 1000, seconds, churn.changes, flings) + gaps.longestOwnParts
            + formatted("); as the loop saw it %.1f ms, the kernel waking it up to %.1f ms after its deadline",
                        gaps.longest * 1000, gaps.latestWake * 1000)
        let ok = gaps.longestOwn <= bound && churn.changes > 0 && flings > 0
        print("\(ok ? "PASS" : "FAIL") loop gap on the host: \(line); at most \(Int(bound * 1000)) ms")
        return ok
    }

    fileprivate func config(spacing: Int) -> String {
        "interval = 0.2\nspacing = \(spacing)\nmedia = \"\(media)\"\n"
    }

    fileprivate func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    private static func temporaryDirectory() throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/carouseld-bench-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemError(call: "mkdtemp", errno: errno) }
        return String(cString: made)
    }
}

/// The VM soak's config churn, one change a call: valid by rename, valid in place, half-written
/// then completed, the playlist order changed.
private struct Churn {
    let directory: String
    let bench: LoopGapBench
    private(set) var changes = 0

    init(directory: String, bench: LoopGapBench) { self.directory = directory; self.bench = bench }

    /// The next change, as work that writes it (run off the loop).
    mutating func next() -> @Sendable () -> Void {
        let conf = directory + "/carouseld.conf", number = changes, bench = self.bench
        changes += 1
        return {
            do {
                switch number % 4 {
                case 0:
                    try bench.write(bench.config(spacing: 20 + number % 40), to: conf + ".tmp")
                    rename(conf + ".tmp", conf)
                case 1: try bench.write(bench.config(spacing: 30), to: conf)
                case 2: try bench.write("interval = 0.2\nspac", to: conf)
                default: try bench.write(bench.config(spacing: 40 + number % 10), to: conf)
                }
            } catch {
                print("bench: config churn: \(error)")
            }
        }
    }
}

/// A fling every 1.5 s: a finger down, 9 moves of 40 px a frame to the left, and up.
private struct Fling {
    private var step = 0
    private(set) var isOver = false

    mutating func frame(at now: Double) -> TouchFrame? {
        defer { step = (step + 1) % 90 }
        isOver = step == 10
        let x = 1400 - Double(step) * 40
        switch step {
        case 0: return TouchFrame(time: now, samples: [TouchSample(slot: 0, phase: .down, x: x, y: 540)], contactsDown: 1)
        case 1..<10: return TouchFrame(time: now, samples: [TouchSample(slot: 0, phase: .move, x: x, y: 540)], contactsDown: 1)
        case 10: return TouchFrame(time: now, samples: [TouchSample(slot: 0, phase: .up, x: x, y: 540)], contactsDown: 0)
        default: return nil
        }
    }
}
