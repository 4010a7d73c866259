import Glibc

/// A file descriptor that this value alone owns: closed exactly once, when the value goes away,
/// including on every early `throw` of the initialiser that opened it. Non-copyable, so no
/// copy can close it twice or outlive it.
package struct OwnedDescriptor: ~Copyable {
    /// The number for C APIs (epoll, ioctl, libdrm) that borrow it.
    package let rawValue: CInt

    /// Takes a descriptor nobody else closes.
    package init(adopting rawValue: CInt) { self.rawValue = rawValue }

    /// Takes what an `open`-like call returned (through `syscall`: EINTR retried, -1 thrown).
    package init(_ call: String, _ open: () -> CInt) throws {
        rawValue = try syscall(call, open)
    }

    /// open(2) with O_CLOEXEC added; the failure's errno is thrown.
    package static func open(_ path: String, _ flags: CInt, mode: mode_t = 0) throws(Errno) -> OwnedDescriptor {
        OwnedDescriptor(adopting: try retryingInterrupts { Glibc.open(path, flags | O_CLOEXEC, mode) })
    }

    deinit { close(rawValue) }

    /// One read(2) (or pread(2) at `offset`), EINTR retried: how many bytes came, 0 at the end.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int? = nil) throws(Errno) -> Int {
        try retryingInterrupts {
            offset.map { pread(rawValue, buffer.baseAddress, buffer.count, off_t($0)) }
                ?? Glibc.read(rawValue, buffer.baseAddress, buffer.count)
        }
    }

    /// Writes all of `bytes`, retrying EINTR and short writes.
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        try CarouselCore.writeAll(rawValue, bytes)
    }

    /// Reads one fixed-size record (an eventfd or timerfd counter, a signalfd record). False when
    /// nothing is there (EAGAIN on a non-blocking descriptor) or the read came up short.
    package func readRecord<T: BitwiseCopyable>(_ record: inout T) -> Bool {
        let size = MemoryLayout<T>.size
        let got = try? withUnsafeMutableBytes(of: &record) { try read(into: $0) }
        return got == size
    }

    /// Writes one fixed-size record (an eventfd increment); false if it did not go through.
    @discardableResult
    package func writeRecord<T: BitwiseCopyable>(_ record: T) -> Bool {
        (try? withUnsafeBytes(of: record) { try writeAll($0) }) != nil
    }
}
