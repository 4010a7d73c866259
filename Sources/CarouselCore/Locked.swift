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
