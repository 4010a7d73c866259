import CLinux
import Glibc

/// Work handed to the event loop from any thread (a finished decode, a config load, opened
/// input devices): queued under a lock, run on the loop's thread in the order it came.
/// One eventfd wakes the loop, written only when the queue was empty: a burst of results costs
/// the loop one wakeup, and no producer needs a descriptor of its own.
package final class LoopInbox: @unchecked Sendable {
    private let wakeup: OwnedDescriptor
    private let lock = ConditionLock()
    private var queue: [() -> Void] = []  // guarded by lock
    private var signalled = 0  // guarded by lock

    init() throws {
        wakeup = try OwnedDescriptor("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
    }

    /// For the loop to watch.
    var fd: Int32 { wakeup.rawValue }

    /// Queues `work` to run on the loop's thread; callable from any thread. `work` runs there,
    /// so it may use the loop's state, but whatever it captures from the calling thread must be
    /// handed over whole (a result by value, not something the caller keeps changing).
    package func execute(_ work: @escaping () -> Void) {
        enqueue([work], atFront: false)
    }

    /// How many times the eventfd was written (tests: one wakeup per burst).
    package var wakeupsSignalled: Int { lock.withLock { signalled } }

    private func enqueue(_ work: [() -> Void], atFront: Bool) {
        guard !work.isEmpty else { return }
        let wasEmpty = lock.withLock {
            let wasEmpty = queue.isEmpty
            queue = atFront ? work + queue : queue + work
            if wasEmpty { signalled += 1 }
            return wasEmpty
        }
        // Not empty: a wakeup is already on its way and the loop has not taken the queue yet.
        if wasEmpty { wakeup.writeRecord(UInt64(1)) }
    }

    /// Work taken but not run (the loop was stopped midway) goes back first, for the next run.
    func putBack(_ work: [() -> Void]) { enqueue(work, atFront: true) }

    /// The queued work, taken on the loop when `fd` is readable. The eventfd is cleared before
    /// the queue is taken: work queued after this finds an empty queue and signals anew.
    func take() -> [() -> Void] {
        var count: UInt64 = 0
        _ = wakeup.readRecord(&count)
        return lock.withLock {
            defer { queue.removeAll() }
            return queue
        }
    }
}
