import Glibc

/// An errno value, printable in strerror's words ("Permission denied"). Ours rather than
/// swift-system's: swift-system 1.8 needs tools version 6.1, and the arm64 build uses Debian 13's
/// Swift 6.0.3 (see DESIGN §13), so the few calls it wrapped are wrapped here.
package struct Errno: Error, Equatable, CustomStringConvertible {
    package var rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's errno now.
    package static var current: Errno { Errno(rawValue: Glibc.errno) }
    package static let ioError = Errno(rawValue: EIO)
    package static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    package static let notDirectory = Errno(rawValue: ENOTDIR)
    package static let permissionDenied = Errno(rawValue: EACCES)
    package static let notPermitted = Errno(rawValue: EPERM)

    package var description: String { String(cString: strerror(rawValue)) }
}

/// A failed system call: the call's name and errno, printable as "open: Permission denied".
package struct SystemError: Error, CustomStringConvertible {
    package var call: String
    package var errno: Errno

    package init(call: String, errno: Errno) { self.call = call; self.errno = errno }
    package init(call: String, errno: Int32) { self.init(call: call, errno: Errno(rawValue: errno)) }

    package var description: String { "\(call): \(errno)" }
}

/// "Permission denied" for an errno value (strerror's wording).
package func describe(errno: Int32) -> String { Errno(rawValue: errno).description }

/// Runs a call that returns -1 on failure until it is not interrupted (EINTR), and throws the
/// errno of any other failure: the one EINTR loop.
package func retryingInterrupts<T: FixedWidthInteger>(_ body: () -> T) throws(Errno) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        if errno != EINTR { throw Errno.current }
    }
}

/// Runs a system call through `retryingInterrupts` (like swift-nio's `syscall(blocking:)`) and
/// throws `SystemError`, which names the call, for any failure.
@discardableResult
package func syscall<T: FixedWidthInteger>(_ name: String, _ body: () -> T) throws -> T {
    do { return try retryingInterrupts(body) } catch { throw SystemError(call: name, errno: error) }
}

/// Writes all of `bytes` to `fd`, retrying EINTR and short writes.
package func writeAll(_ fd: CInt, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
    var done = 0
    while done < bytes.count {
        done += try retryingInterrupts { write(fd, bytes.baseAddress! + done, bytes.count - done) }
    }
}
