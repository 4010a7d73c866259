import Glibc
import SystemPackage

/// A file descriptor that this value alone owns: closed exactly once, when the value goes away,
/// including on every early `throw` of the initialiser that opened it. Non-copyable, so no
/// copy can close it twice or outlive it.
package struct OwnedDescriptor: ~Copyable {
    package let descriptor: FileDescriptor

    package init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    /// Takes what an `open`-like call returned (through `syscall`: EINTR retried, -1 thrown).
    package init(_ call: String, _ open: () -> CInt) throws {
        descriptor = FileDescriptor(rawValue: try syscall(call, open))
    }

    /// The number for C APIs (epoll, ioctl, libdrm) that borrow it.
    package var rawValue: CInt { descriptor.rawValue }

    deinit { try? descriptor.close() }

    /// Reads one fixed-size record (an eventfd or timerfd counter, a signalfd record). False when
    /// nothing is there (EAGAIN on a non-blocking descriptor) or the read came up short.
    package func readRecord<T: BitwiseCopyable>(_ record: inout T) -> Bool {
        let size = MemoryLayout<T>.size
        let got = try? withUnsafeMutableBytes(of: &record) { try descriptor.read(into: $0, retryOnInterrupt: true) }
        return got == size
    }

    /// Writes one fixed-size record (an eventfd increment); false if it did not go through.
    @discardableResult
    package func writeRecord<T: BitwiseCopyable>(_ record: T) -> Bool {
        let put = try? withUnsafeBytes(of: record) { try descriptor.write($0, retryOnInterrupt: true) }
        return put == MemoryLayout<T>.size
    }
}
