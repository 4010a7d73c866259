import CLinux
import Glibc

/// An eventfd: any thread `signal()`s, the event loop sees `fd` readable and `drain()`s it.
/// How finished work off the loop (a decode, a config load) wakes the loop.
package final class EventCounter: Sendable {
    private let owned: OwnedDescriptor

    package init() throws {
        owned = try OwnedDescriptor("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
    }

    /// For the event loop to watch.
    package var fd: Int32 { owned.rawValue }

    /// Makes `fd` readable (from any thread).
    package func signal() { owned.writeRecord(UInt64(1)) }

    /// Makes `fd` unreadable again; how many signals there were since the last drain.
    @discardableResult
    package func drain() -> UInt64 {
        var count: UInt64 = 0
        return owned.readRecord(&count) ? count : 0
    }
}
