import CInput
import Glibc

/// A mutex with one condition variable (pthreads), for the decode worker's shared state.
/// Foundation's NSCondition would do the same, but full Foundation is not linked (it brings ICU).
/// The pthread objects live on the heap: they must never move once initialised.
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Releases the lock until `broadcast()`, then holds it again (may wake spuriously).
    func wait() { pthread_cond_wait(condition, mutex) }
    func broadcast() { pthread_cond_broadcast(condition) }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock(); defer { unlock() }
        return try body()
    }
}

/// Starts a detached, named thread running `body`.
enum DetachedThread {
    private final class Box {
        let name: String, body: () -> Void
        init(_ name: String, _ body: @escaping () -> Void) { self.name = name; self.body = body }
    }

    static func start(name: String, _ body: @escaping () -> Void) {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Box(name, body)).toOpaque()
        let rc = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            _ = carouseld_name_this_thread(box.name)
            box.body()
            return nil
        }, box)
        guard rc == 0 else {
            // Without a thread nothing could ever be decoded: fail loudly rather than show nothing.
            fatalError("pthread_create: \(describe(errno: rc))")
        }
        pthread_detach(thread)
    }
}
