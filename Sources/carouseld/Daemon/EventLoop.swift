import CInput
import Glibc

/// The daemon's single thread of control: epoll over every file descriptor the shell owns
/// (DRM, signalfd, timerfd, eventfd, and later libinput and inotify). Handlers run on the
/// loop's thread one at a time; nothing in them may block.
///
/// Other parts plug in with `add(fd:handler:)`; work that must not run inside the current
/// handler (to avoid re-entrancy) is queued with `post(_:)` and runs before the loop sleeps.
final class EventLoop {
    typealias Handler = () -> Void

    private let epoll: OwnedDescriptor
    private var handlers: [Int32: (name: String, run: Handler)] = [:]
    private var posted: [Handler] = []
    private var stopped = false
    /// How many times epoll_wait returned: the loop's wakeups, for idle measurements.
    private(set) var wakeups = 0
    /// Asked at each wakeup: is something animating? (The daemon: the strip moves.)
    var isAnimating: () -> Bool = { false }
    /// The longest time between two wakeups while animating: how long a frame could be late
    /// because a handler held the loop (the soak test's "loop stall").
    private(set) var longestAnimatingGap = 0.0
    private var lastAnimatingWake: Double?
    /// How long the handlers of the previous wakeup ran, and which of them ran longest.
    private var lastTurnBusy = 0.0
    private var lastTurnSlowest: (name: String, seconds: Double)?

    init() throws {
        epoll = try OwnedDescriptor("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
    }

    /// Calls `handler` whenever `fd` is readable. The caller keeps owning (and closing) `fd`,
    /// and must `remove(fd:)` it before closing it. `name` ("DRM events") is for the stall log.
    func add(fd: Int32, name: String, handler: @escaping Handler) throws {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd
        try syscall("epoll_ctl(ADD)") { epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, fd, &event) }
        handlers[fd] = (name, handler)
    }

    /// Stops watching `fd`; unknown descriptors are ignored.
    func remove(fd: Int32) {
        guard handlers.removeValue(forKey: fd) != nil else { return }
        _ = epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, fd, nil)
    }

    /// Runs `work` on the loop after the current handler returns, before sleeping again.
    func post(_ work: @escaping Handler) { posted.append(work) }

    /// Returns the longest gap while animating so far and starts measuring afresh.
    func takeLongestAnimatingGap() -> Double {
        defer { longestAnimatingGap = 0 }
        return longestAnimatingGap
    }

    /// Dispatches until `stop()` is called.
    func run() throws {
        stopped = false
        while !stopped { try runOnce(timeoutMilliseconds: -1) }
    }

    /// Ends `run()`: the current handler finishes, then nothing else (ready descriptors of
    /// the same batch, posted work) runs.
    func stop() { stopped = true }

    /// Runs posted work, then waits up to `timeoutMilliseconds` (-1: forever) and dispatches
    /// what became ready. Returns the number of ready descriptors.
    @discardableResult
    func runOnce(timeoutMilliseconds: Int32) throws -> Int {
        runPosted()
        if stopped { return 0 }
        var events = [epoll_event](repeating: epoll_event(), count: 16)
        let timeout = posted.isEmpty ? timeoutMilliseconds : 0
        let count = try syscall("epoll_wait") { epoll_wait(epoll.rawValue, &events, Int32(events.count), timeout) }
        wakeups += 1
        let woke = MonotonicClock.now()
        if let last = lastAnimatingWake {
            longestAnimatingGap = max(longestAnimatingGap, woke - last)
            // A tenth of a second without a frame is a visible hitch: say so, and whether the loop
            // was busy (a handler) or asleep (nothing woke it, or no CPU was given to it).
            if woke - last > 0.1 {
                let slowest = lastTurnSlowest.map { formatted(", longest %.0f ms in ", $0.seconds * 1000) + $0.name } ?? ""
                Log.notice(formatted("loop stalled %.0f ms while animating (busy %.0f ms",
                                     (woke - last) * 1000, lastTurnBusy * 1000) + slowest
                           + formatted("; asleep %.0f ms)", (woke - last - lastTurnBusy) * 1000))
            }
        }
        lastTurnSlowest = nil
        for event in events.prefix(Int(count)) where !stopped {
            // A handler may have removed a later descriptor of this batch: look it up each time.
            guard let handler = handlers[event.data.fd] else { continue }
            timed(handler.name, handler.run)
        }
        // After stop() nothing more runs: no frame may follow the screen being given back.
        if !stopped { timed("posted work (frames, reload, timers)", runPosted) }
        lastAnimatingWake = isAnimating() ? woke : nil
        lastTurnBusy = MonotonicClock.now() - woke
        return Int(count)
    }

    /// Runs `work`, remembering it if it is the slowest of this turn.
    private func timed(_ name: String, _ work: () -> Void) {
        let start = MonotonicClock.now()
        work()
        let seconds = MonotonicClock.now() - start
        if seconds > (lastTurnSlowest?.seconds ?? 0) { lastTurnSlowest = (name, seconds) }
    }

    private func runPosted() {
        while !posted.isEmpty {
            let work = posted
            posted.removeAll()
            for item in work { item() }
        }
    }
}
