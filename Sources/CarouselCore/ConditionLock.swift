import CLinux
import Glibc

/// A mutex with one condition variable (pthreads), for the decode worker's shared state.
/// Foundation's NSCondition would do the same, but full Foundation is not linked (it brings ICU).
/// The pthread objects live on the heap: they must never move once initialised.
package final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    /// Releases the lock until `broadcast()`, then holds it again (may wake spuriously).
    package func wait() { pthread_cond_wait(condition, mutex) }
    package func broadcast() { pthread_cond_broadcast(condition) }

    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock(); defer { unlock() }
        return try body()
    }
}

/// Starts a detached, named thread running `body`.
package enum DetachedThread {
    private final class Box {
        package let name: String, background: Bool, body: () -> Void
        package init(_ name: String, _ background: Bool, _ body: @escaping () -> Void) {
            self.name = name; self.background = background; self.body = body
        }
    }

    /// How much nicer a background thread is than the event loop: on a one-core board the
    /// loop's next frame then preempts a decode instead of waiting out its time slice. Five
    /// steps (a third of the loop's CPU share when both are busy), not more: a decode starved
    /// while a compositor and the animation take the CPU would leave a card empty.
    package static let backgroundNice: Int32 = 5

    /// Lowers the calling thread `backgroundNice` steps below where it is (the loop's priority it
    /// was started at; at most 19): a thread started for urgent work (the first frame's decodes)
    /// once that work is done. Relative, not absolute: under the unit's Nice=-5 an absolute 5 was
    /// ten steps, and in a process already at nice 19 (a niced test run) it raised the thread.
    package static func makeThisThreadBackground() { _ = carouseld_renice_this_thread(backgroundNice) }

    /// `background`: decodes and loads, which must never hold up a frame.
    package static func start(name: String, background: Bool = false, _ body: @escaping () -> Void) {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Box(name, background, body)).toOpaque()
        let rc = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
            _ = carouseld_name_this_thread(box.name)
            // Linux keeps a nice value per thread: this one alone is lowered.
            if box.background { DetachedThread.makeThisThreadBackground() }
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

/// A value shared between threads, reached only under a pthread mutex (`ConditionLock`).
/// Not the standard library's `Synchronization.Mutex`: on Linux a contended one is handed over
/// by the kernel (priority-inheritance futexes), which ThreadSanitizer cannot see, so every
/// contended access under it was reported as a race (the card cache, written by two decode
/// threads at once).
package final class Locked<Value>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }
}
