import CLinux
import Glibc

/// The daemon's single thread of control: epoll over every descriptor the daemon watches, and
/// every deadline it keeps. Handlers run on the loop's thread one at a time; nothing in them
/// may block.
///
/// There is one way to be called back for each kind of cause:
/// - a descriptor becomes readable: `watch(_:name:handler:)` gives a `Watch` token;
/// - a time arrives: `timer(_:action:)` gives a `LoopTimer` token, run by the loop's clock;
/// - a wall-clock time arrives or the wall clock is set: `wallClockTimer(_:action:)` gives a
///   `WallClockTimer` token;
/// - after the current handler (to avoid re-entrancy): `post(_:)`;
/// - from another thread (a result of work done off the loop): `execute(_:)`.
/// Tokens unregister themselves when dropped, so nothing is removed by hand.
///
/// Everything but `execute` belongs to the loop's thread (the one that made the loop); debug
/// builds check that, as swift-nio's loop does, so a worker touching the loop fails at once
/// instead of corrupting it now and then.
package final class EventLoop {
    package typealias Handler = () -> Void

    /// The monotonic clock every timer of this loop is due by.
    package let time: TimeSource
    private let epoll: OwnedDescriptor
    /// Wakes epoll at the earliest timer's deadline.
    private let alarm: OwnedDescriptor
    private var alarmDeadline: Double?
    /// Wakes epoll at the earliest wall-clock deadline, or when the wall clock is set.
    private let wallAlarm: OwnedDescriptor
    private var wallAlarmDeadline: Double?
    /// Catches a set of the clock that arming `wallAlarm` again made the kernel forget.
    private var wallOffset: WallClockOffset
    /// Work from other threads (`execute`).
    private let inbox: LoopInbox
    private var watches: [Int32: Weak<Watch>] = [:]
    /// Every live timer, and the scheduled ones by deadline. Not retained: a timer takes itself
    /// off in its deinit, so an entry here always names a live timer.
    private var timers: [ObjectIdentifier: Unmanaged<LoopTimer>] = [:]
    private var deadlines = DeadlineHeap<ObjectIdentifier>()
    private var wallTimers: [ObjectIdentifier: Unmanaged<WallClockTimer>] = [:]
    private var wallDeadlines = DeadlineHeap<ObjectIdentifier>()
    private var posted: [Handler] = []
    /// epoll_wait's output, kept: a turn a frame, each made its own array before.
    private var readyEvents = [epoll_event](repeating: epoll_event(), count: 16)
    private var stopped = false
    /// How many times epoll_wait returned: the loop's wakeups, for idle measurements.
    package private(set) var wakeups = 0
    /// Told of each turn and of each handler it runs, when set (as swift-nio's
    /// `NIOEventLoopMetricsDelegate`): without one the loop measures nothing and asks nobody
    /// anything. Held strongly: an observer keeps nothing of the loop's.
    package var observer: (any LoopObserver)?
    #if DEBUG
    private let thread = pthread_self()
    #endif

    package init(time: TimeSource = SystemTime.shared, wallOffset: WallClockOffset = WallClockOffset()) throws {
        self.time = time
        self.wallOffset = wallOffset
        epoll = try OwnedDescriptor("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        alarm = try OwnedDescriptor("timerfd_create") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        }
        wallAlarm = try OwnedDescriptor("timerfd_create") {
            timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        }
        inbox = try LoopInbox()
        try add(alarm.rawValue)
        try add(wallAlarm.rawValue)
        try add(inbox.fd)
    }

    /// Stops the process in debug builds when called off the loop's thread.
    package func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        precondition(pthread_equal(thread, pthread_self()) != 0, "EventLoop used off its thread", file: file, line: line)
        #endif
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

    /// A timer on the wall clock: `action(.due)` once its deadline (seconds since 1970) is
    /// reached, `action(.clockSet)` whenever the wall clock is set while it is scheduled.
    package func wallClockTimer(_ name: String, action: @escaping (WallClockTimer.Cause) -> Void) -> WallClockTimer {
        WallClockTimer(loop: self, name: name, action: action)
    }

    /// Runs `work` on the loop after the current handler returns, before sleeping again.
    package func post(_ work: @escaping Handler) {
        assertInLoop()
        posted.append(work)
    }

    // The same, for the object that keeps the token (or, for `post`, asks for the work): the
    // handler is given that object, which the loop holds weakly. So the token kept in the owner
    // and the closure kept in the loop make no cycle, no caller captures `unowned self` (a crash
    // if the owner went first), and an owner that has gone is simply not called.

    package func watch<Owner: AnyObject>(_ fd: Int32, name: String, owner: Owner,
                                         handler: @escaping (Owner) -> Void) throws -> Watch {
        try watch(fd, name: name) { [weak owner] in if let owner { handler(owner) } }
    }

    package func timer<Owner: AnyObject>(_ name: String, owner: Owner,
                                         action: @escaping (Owner, Double) -> Void) -> LoopTimer {
        timer(name) { [weak owner] now in if let owner { action(owner, now) } }
    }

    package func wallClockTimer<Owner: AnyObject>(_ name: String, owner: Owner,
                                                  action: @escaping (Owner, WallClockTimer.Cause) -> Void) -> WallClockTimer {
        wallClockTimer(name) { [weak owner] cause in if let owner { action(owner, cause) } }
    }

    package func post<Owner: AnyObject>(to owner: Owner, _ work: @escaping (Owner) -> Void) {
        post { [weak owner] in if let owner { work(owner) } }
    }

    /// Hands `value` to `receiver` after the current handler: how a layer below passes an event
    /// up (an output's frame, the input's actions) without calling into the layer above. The
    /// loop starts the receiver, as it starts every handler.
    package func post<Value>(_ value: Value, to receiver: @escaping (Value) -> Void) {
        post { receiver(value) }
    }

    /// Runs `work` on the loop's thread soon; callable from any thread (see `LoopInbox`).
    package func execute(_ work: @escaping () -> Void) { inbox.execute(work) }

    /// What a thread off the loop keeps to hand work to it (`execute` without the loop).
    package var executor: LoopInbox { inbox }

    package func register(_ watch: Watch) throws {
        assertInLoop()
        try add(watch.fd)
        watches[watch.fd] = Weak(watch)
    }

    /// Called by a dropped `Watch`. The number may already belong to a newer watch (the old
    /// descriptor closed and the number reused): then it stays.
    package func unregister(_ watch: Watch) {
        assertInLoop()
        guard let current = watches[watch.fd], current.value == nil || current.value === watch else { return }
        watches[watch.fd] = nil
        _ = epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, watch.fd, nil)
    }

    package func register(_ timer: LoopTimer) {
        assertInLoop()
        timers[ObjectIdentifier(timer)] = .passUnretained(timer)
    }

    /// The timer's deadline changed: moved in the heap; the alarm follows before the loop sleeps.
    package func rescheduled(_ timer: LoopTimer) {
        assertInLoop()
        deadlines.set(ObjectIdentifier(timer), to: timer.deadline)
    }

    package func unregister(_ timer: LoopTimer) {
        assertInLoop()
        let id = ObjectIdentifier(timer)
        timers[id] = nil
        deadlines.remove(id)
    }

    package func register(_ timer: WallClockTimer) {
        assertInLoop()
        wallTimers[ObjectIdentifier(timer)] = .passUnretained(timer)
    }

    /// Armed at once, not before the loop sleeps: see `WallClockTimer.schedule(at:)`.
    package func rescheduled(_ timer: WallClockTimer) {
        assertInLoop()
        wallDeadlines.set(ObjectIdentifier(timer), to: timer.deadline)
        armWallAlarm()
    }

    package func unregister(_ timer: WallClockTimer) {
        assertInLoop()
        let id = ObjectIdentifier(timer)
        wallTimers[id] = nil
        wallDeadlines.remove(id)
        armWallAlarm()
    }

    private func add(_ fd: Int32) throws {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd
        try syscall("epoll_ctl(ADD)") { epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, fd, &event) }
    }

    // MARK: - running

    /// Dispatches until `stop()` is called.
    package func run() throws {
        stopped = false
        while !stopped { try runOnce(timeoutMilliseconds: -1) }
    }

    /// Ends `run()`: the current handler finishes, then nothing else (ready descriptors of
    /// the same batch, due timers, posted work) runs.
    package func stop() {
        assertInLoop()
        stopped = true
    }

    /// Runs one handler, timed by the observer when there is one.
    private func timed(_ name: String, _ work: () -> Void) {
        if let observer { observer.ran(name, work) } else { work() }
    }

    /// Runs posted work and due timers, then waits up to `timeoutMilliseconds` (-1: forever,
    /// but never past the earliest timer) and dispatches what became ready. Returns the number
    /// of ready descriptors.
    @discardableResult
    package func runOnce(timeoutMilliseconds: Int32) throws -> Int {
        assertInLoop()
        // One time for the timers, the check and the alarm: what posted work runs after the
        // timers is short, so a timer it schedules is at most that much late.
        var turn = runPostedAndDue()
        if stopped { return 0 }
        let timeout = posted.isEmpty && !hasDueTimer(&turn) ? timeoutMilliseconds : 0
        armAlarm(&turn)
        let count = try syscall("epoll_wait") { epoll_wait(epoll.rawValue, &readyEvents, Int32(readyEvents.count), timeout) }
        let events = readyEvents
        wakeups += 1
        observer?.woke(at: time.coarseNow(), sleptUntil: timeout == 0 ? nil : alarmDeadline)
        for event in events.prefix(Int(count)) where !stopped {
            switch event.data.fd {
            case alarm.rawValue: acknowledgeAlarm()
            case wallAlarm.rawValue: timed("wall-clock timers") { runWallClockTimers() }
            case inbox.fd: timed("work from other threads") { runExecuted() }
            default:
                // A handler may have dropped a later watch of this batch: look it up each time.
                guard let watch = watches[event.data.fd]?.value else { continue }
                timed(watch.name, watch.run)
            }
        }
        // After stop() nothing more runs: no frame may follow the screen being given back.
        if !stopped { timed("timers and posted work (frames, reload)") { runPostedAndDue() } }
        observer?.turnEnded()
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

    /// Work from other threads, in the order it was queued. Stopped midway, the rest waits for
    /// the next run: a result dropped here would leave its task running forever.
    private func runExecuted() {
        let work = inbox.take()
        for (index, item) in work.enumerated() {
            if stopped { return inbox.putBack(Array(work[index...])) }
            item()
        }
    }

    /// Timers whose deadline has passed, earliest first, each at most once per call: one that
    /// schedules itself again in the past is set aside, and goes back in the heap for the next
    /// turn. A timer's action may drop another timer, which leaves the heap with it.
    private func runDueTimers(_ turn: inout TurnTime) {
        var fired: Set<ObjectIdentifier> = []
        defer {
            for id in fired { if let timer = timers[id]?.takeUnretainedValue() { deadlines.set(id, to: timer.deadline) } }
        }
        while !stopped, let due = deadlines.first, turn.hasCome(due.deadline) {
            deadlines.remove(due.id)
            // Fired already in this call: it waits in `fired` for the next turn.
            guard fired.insert(due.id).inserted, let timer = timers[due.id]?.takeUnretainedValue() else { continue }
            let now = turn.now()
            timed(timer.name) { timer.fire(now: now) }
        }
    }

    private func hasDueTimer(_ turn: inout TurnTime) -> Bool {
        guard let next = nextDeadline else { return false }
        return turn.hasCome(next)
    }

    /// The earliest deadline of any timer, for the alarm.
    package var nextDeadline: Double? {
        assertInLoop()
        return deadlines.first?.deadline
    }

    /// The earliest wall-clock deadline (seconds since 1970).
    package var nextWallClockDeadline: Double? {
        assertInLoop()
        return wallDeadlines.first?.deadline
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

    // MARK: - the wall clock

    /// Arms the realtime timerfd at the earliest wall-clock deadline, absolute and cancelled
    /// when the clock is set. Disarmed with no deadline: nothing then asks about the clock.
    private func armWallAlarm(force: Bool = false) {
        let next = wallDeadlines.first?.deadline
        guard force || next != wallAlarmDeadline else { return }
        wallAlarmDeadline = next
        var spec = itimerspec()
        if let next {
            // Rounded up to the nanosecond, so the timerfd never fires before the deadline
            // (a wakeup that finds nothing due would re-arm at the same time and spin); never
            // 0, which would disarm.
            let t = max(next, 1e-9)
            var seconds = Int(t.rounded(.down))
            var nanoseconds = Int(((t - Double(seconds)) * 1e9).rounded(.up))
            if nanoseconds >= 1_000_000_000 { seconds += 1; nanoseconds -= 1_000_000_000 }
            spec.it_value.tv_sec = seconds
            spec.it_value.tv_nsec = max(1, nanoseconds)
        }
        let setUnreported = wallOffset.movedSinceArming()
        if timerfd_settime(wallAlarm.rawValue, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &spec, nil) != 0 {
            Log.error("arming the wall-clock timer: \(Errno.current)")
        }
        wallOffset.armed(deadline: next)
        // As the kernel would have reported it, after the handler that armed.
        if setUnreported { post(to: self) { $0.wallClockWasSet() } }
    }

    /// The realtime timerfd woke epoll: a deadline came, or (ECANCELED) the clock was set.
    private func runWallClockTimers() {
        var expirations: UInt64 = 0
        do {
            _ = try withUnsafeMutableBytes(of: &expirations) { try wallAlarm.read(into: $0) }
        } catch let error as Errno where error.rawValue == ECANCELED {
            wallClockWasSet()
            return
        } catch {
            return  // EAGAIN: nothing there
        }
        runDueWallClockTimers()
        armWallAlarm(force: true)
    }

    /// Every scheduled wall-clock timer works its deadline out again (in the order of their
    /// deadlines), then those due by the new clock run. Separate from the read for the tests:
    /// setting the clock needs root.
    package func wallClockWasSet() {
        assertInLoop()
        var ids: [ObjectIdentifier] = []
        var copy = wallDeadlines
        while let next = copy.popFirst() { ids.append(next.id) }
        for id in ids where !stopped {
            guard let timer = wallTimers[id]?.takeUnretainedValue(), timer.deadline != nil else { continue }
            timed(timer.name) { timer.fire(.clockSet) }
        }
        runDueWallClockTimers()
        // The read that reported the set disarmed nothing, but arm anew all the same.
        armWallAlarm(force: true)
    }

    /// Timers whose wall-clock deadline has passed, each once (one that schedules itself in the
    /// past again is left to the timerfd, which fires at once).
    private func runDueWallClockTimers() {
        // A microsecond of slack for the sum of seconds and nanoseconds rounding down.
        let now = WallClock.now() + 1e-6
        var due: [ObjectIdentifier] = []
        while let next = wallDeadlines.first, next.deadline <= now {
            due.append(next.id)
            wallDeadlines.remove(next.id)
        }
        for id in due where !stopped {
            // An earlier one's action may have moved or unscheduled it: then it is not due.
            guard let timer = wallTimers[id]?.takeUnretainedValue(), timer.deadline != nil,
                  wallDeadlines.deadline(of: id) == nil else { continue }
            timed(timer.name) { timer.fire(.due) }
        }
    }
}

/// A reference that does not keep its object: the loop holds its tokens this way, so a token
/// dropped by its owner is gone.
package struct Weak<T: AnyObject> {
    package weak var value: T?
    package init(_ value: T) { self.value = value }
}

/// A descriptor watched by the event loop: `handler` runs whenever it is readable, until the
/// token is dropped. Drop it before closing the descriptor (the owner declares the watch
/// after the descriptor it watches, or drops it first).
package final class Watch {
    package let fd: Int32
    package let name: String
    private let handler: () -> Void
    private weak var loop: EventLoop?

    package init(loop: EventLoop, fd: Int32, name: String, handler: @escaping () -> Void) throws {
        self.loop = loop; self.fd = fd; self.name = name; self.handler = handler
        try loop.register(self)
    }

    package func run() { handler() }

    deinit { loop?.unregister(self) }
}
