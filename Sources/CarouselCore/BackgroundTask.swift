/// Runs slow work (file I/O, device enumeration) on a thread of its own and hands the result
/// to the event loop through `fd`, an eventfd the loop watches: the loop keeps drawing
/// meanwhile. One run at a time; a run is never cancelled, only its result taken later.
package final class BackgroundTask<Value>: @unchecked Sendable {
    private let finished: EventCounter
    private let name: String
    private let lock = ConditionLock()
    private var result: Value?  // guarded by lock
    package private(set) var isRunning = false

    package init(name: String) throws {
        self.name = name
        finished = try EventCounter()
    }

    /// Readable when a run finished; `take()` clears it.
    package var fd: Int32 { finished.fd }

    /// Starts `work` on its thread unless a run is under way. `work` must not touch the
    /// loop's state: it gets its inputs by value and returns everything it made.
    package func start(_ work: @escaping () -> Value) {
        guard !isRunning else { return }
        isRunning = true
        DetachedThread.start(name: name, background: true) { [self] in
            let value = work()
            lock.withLock { result = value }
            finished.signal()
        }
    }

    /// The finished run's result, if there is one (on the loop, when `fd` is readable).
    package func take() -> Value? {
        finished.drain()
        let taken: Value? = lock.withLock {
            defer { result = nil }
            return result
        }
        if taken != nil { isRunning = false }
        return taken
    }
}
