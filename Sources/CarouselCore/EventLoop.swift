import CLinux
import Glibc

/// The daemon's single thread of control: epoll over every descriptor the daemon watches, and
/// every deadline it keeps. Handlers run on the loop's thread one at a time; nothing in them
/// may block.
///
/// There is one way to be called back for each kind of cause:
/// - a descriptor becomes readable: `watch(_:name:handler:)` gives a `Watch` token;
/// - a time arrives: `timer(_:action:)` gives a `LoopTimer` token, run by the loop's clock;
/// - after the current handler (to avoid re-entrancy): `post(_:)`.
/// Tokens unregister themselves when dropped, so nothing is removed by hand.
package final class EventLoop {
    package typealias Handler = () -> Void

    /// The monotonic clock every timer of this loop is due by.
    package let time: TimeSource
    private let epoll: OwnedDescriptor
    /// Wakes epoll at the earliest timer's deadline.
    private let alarm: OwnedDescriptor
    private var alarmDeadline: Double?
    private var watches: [Int32: Weak<Watch>] = [:]
    /// Every live timer. Not retained: a timer takes itself off in its deinit, so an entry
    /// here always names a live timer.
    private var timers: [(id: ObjectIdentifier, timer: Unmanaged<LoopTimer>)] = []
    private var posted: [Handler] = []
    private var stopped = false
    /// How many times epoll_wait returned: the loop's wakeups, for idle measurements.
    package private(set) var wakeups = 0
    /// Asked at each wakeup: is something animating? (The daemon: a strip moves.)
    package var isAnimating: () -> Bool = { false }
    private let stalls: StallMeter

    package init(time: TimeSource = SystemTime.shared) throws {
        self.time = time
        stalls = StallMeter(time: time)
        epoll = try OwnedDescriptor("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        alarm = try OwnedDescriptor("timerfd_create") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        }
        try add(alarm.rawValue)
    }

    // MARK: - registering

    /// Runs `handler` whenever `fd` is readable, for as long as the returned token is kept.
    /// The caller keeps owning (and closing) `fd`; `name` ("DRM events") is for the stall log.
    package func watch(_ fd: Int32, name: String, handler: @escaping Handler) throws -> Watch {
        try Watch(loop: self, fd: fd, name: name, handler: handler)
    }

    /// A timer that runs `action(now)` once its deadline is reached; schedule it with
    /// `schedule(at:)`. Kept as long as the returned token is.
    package func timer(_ name: String, action: @escaping (Double) -> Void) -> LoopTimer {
        LoopTimer(loop: self, name: name, action: action)
    }

    /// Runs `work` on the loop after the current handler returns, before sleeping again.
    package func post(_ work: @escaping Handler) { posted.append(work) }

    package func register(_ watch: Watch) throws {
        try add(watch.fd)
        watches[watch.fd] = Weak(watch)
    }

    /// Called by a dropped `Watch`. The number may already belong to a newer watch (the old
    /// descriptor closed and the number reused): then it stays.
    package func unregister(_ watch: Watch) {
        guard let current = watches[watch.fd], current.value == nil || current.value === watch else { return }
        watches[watch.fd] = nil
        _ = epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, watch.fd, nil)
    }

    package func register(_ timer: LoopTimer) { timers.append((ObjectIdentifier(timer), .passUnretained(timer))) }
    package func unregister(_ timer: LoopTimer) {
        let id = ObjectIdentifier(timer)
        timers.removeAll { $0.id == id }
    }

    private func add(_ fd: Int32) throws {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd
        try syscall("epoll_ctl(ADD)") { epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, fd, &event) }
    }

    // MARK: - running

    /// Returns the longest gap while animating so far and starts measuring afresh.
    package func takeLongestAnimatingGap() -> Double { stalls.takeLongestGap() }
    /// The same without starting afresh (for the metrics file).
    package var longestAnimatingGapSoFar: Double { stalls.longestGap }

    /// Dispatches until `stop()` is called.
    package func run() throws {
        stopped = false
        while !stopped { try runOnce(timeoutMilliseconds: -1) }
    }

    /// Ends `run()`: the current handler finishes, then nothing else (ready descriptors of
    /// the same batch, due timers, posted work) runs.
    package func stop() { stopped = true }

    /// Runs posted work and due timers, then waits up to `timeoutMilliseconds` (-1: forever,
    /// but never past the earliest timer) and dispatches what became ready. Returns the number
    /// of ready descriptors.
    @discardableResult
    package func runOnce(timeoutMilliseconds: Int32) throws -> Int {
        // One time for the timers, the check and the alarm: what posted work runs after the
        // timers is short, so a timer it schedules is at most that much late.
        var turn = runPostedAndDue()
        if stopped { return 0 }
        var events = [epoll_event](repeating: epoll_event(), count: 16)
        let timeout = posted.isEmpty && !hasDueTimer(&turn) ? timeoutMilliseconds : 0
        armAlarm(&turn)
        let count = try syscall("epoll_wait") { epoll_wait(epoll.rawValue, &events, Int32(events.count), timeout) }
        wakeups += 1
        let woke = time.coarseNow()
        stalls.woke(at: woke)
        for event in events.prefix(Int(count)) where !stopped {
            if event.data.fd == alarm.rawValue { acknowledgeAlarm(); continue }
            // A handler may have dropped a later watch of this batch: look it up each time.
            guard let watch = watches[event.data.fd]?.value else { continue }
            stalls.timed(watch.name, watch.run)
        }
        // After stop() nothing more runs: no frame may follow the screen being given back.
        if !stopped { stalls.timed("timers and posted work (frames, reload)") { runPostedAndDue() } }
        stalls.turnEnded(at: woke, animating: isAnimating())
        return Int(count)
    }

    /// Posted work, due timers, and what they posted. A timer that schedules itself (or
    /// another) at a time already past runs on the next turn, which then does not sleep: it
    /// cannot hold the loop in this one.
    /// Returns the time the timers were due by, for the same turn's check and alarm.
    @discardableResult
    private func runPostedAndDue() -> TurnTime {
        runPosted()
        var turn = TurnTime(time)
        runDueTimers(&turn)
        runPosted()
        return turn
    }

    private func runPosted() {
        while !posted.isEmpty && !stopped {
            let work = posted
            posted.removeAll()
            for item in work { item() }
        }
    }

    /// Timers whose deadline has passed, earliest first, each at most once per call (one that
    /// schedules itself again in the past waits for the next turn). A timer's action may drop
    /// another timer: the list is looked at anew for each one.
    private func runDueTimers(_ turn: inout TurnTime) {
        var fired: [ObjectIdentifier] = []
        while !stopped {
            var earliest: (id: ObjectIdentifier, timer: LoopTimer, deadline: Double)?
            for entry in timers where !fired.contains(entry.id) {
                let timer = entry.timer.takeUnretainedValue()
                if let deadline = timer.deadline, deadline < (earliest?.deadline ?? .infinity) {
                    earliest = (entry.id, timer, deadline)
                }
            }
            guard let due = earliest, turn.hasCome(due.deadline) else { return }
            fired.append(due.id)
            let now = turn.now()
            stalls.timed(due.timer.name) { due.timer.fire(now: now) }
        }
    }

    private func hasDueTimer(_ turn: inout TurnTime) -> Bool {
        guard let next = nextDeadline else { return false }
        return turn.hasCome(next)
    }

    /// The earliest deadline of any timer, for the alarm.
    package var nextDeadline: Double? {
        var next: Double?
        for entry in timers {
            if let deadline = entry.timer.takeUnretainedValue().deadline, deadline < (next ?? .infinity) { next = deadline }
        }
        return next
    }

    /// Arms the timerfd for the earliest deadline, relative to the loop's clock (which may be
    /// a test's): the alarm only wakes epoll, the timers are due by `time`.
    private func armAlarm(_ turn: inout TurnTime) {
        let next = nextDeadline
        guard next != alarmDeadline else { return }
        alarmDeadline = next
        var spec = itimerspec()
        if let next {
            // it_value 0 would disarm: a deadline due now fires after a nanosecond instead.
            let wait = max(next - turn.now(), 1e-9)
            spec.it_value.tv_sec = Int(wait.rounded(.down))
            spec.it_value.tv_nsec = max(1, Int((wait - wait.rounded(.down)) * 1e9))
        }
        _ = timerfd_settime(alarm.rawValue, 0, &spec, nil)
    }

    private func acknowledgeAlarm() {
        var expirations: UInt64 = 0
        if alarm.readRecord(&expirations) { alarmDeadline = nil }
    }
}

/// A reference that does not keep its object: the loop holds its tokens this way, so a token
/// dropped by its owner is gone.
package struct Weak<T: AnyObject> {
    package weak var value: T?
    package init(_ value: T) { self.value = value }
}
