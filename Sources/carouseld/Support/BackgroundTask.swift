import CInput
import Glibc

/// Runs slow work (file I/O, device enumeration) on a thread of its own and hands the result
/// to the event loop through `fd`, an eventfd the loop watches: the loop keeps drawing
/// meanwhile. One run at a time; a run is never cancelled, only its result taken later.
final class BackgroundTask<Value>: @unchecked Sendable {
    /// Readable when a run finished; `take()` clears it.
    let fd: Int32
    private let name: String
    private let lock = ConditionLock()
    private var result: Value?  // guarded by lock
    private(set) var isRunning = false

    init(name: String) throws {
        self.name = name
        fd = try syscall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// Starts `work` on its thread unless a run is under way. `work` must not touch the
    /// loop's state: it gets its inputs by value and returns everything it made.
    func start(_ work: @escaping () -> Value) {
        guard !isRunning else { return }
        isRunning = true
        DetachedThread.start(name: name, background: true) { [self] in
            let value = work()
            lock.withLock { result = value }
            var one: UInt64 = 1
            _ = write(fd, &one, 8)
        }
    }

    /// The finished run's result, if there is one (on the loop, when `fd` is readable).
    func take() -> Value? {
        var count: UInt64 = 0
        _ = read(fd, &count, 8)
        let taken: Value? = lock.withLock {
            defer { result = nil }
            return result
        }
        if taken != nil { isRunning = false }
        return taken
    }
}
