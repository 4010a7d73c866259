import Glibc
import SystemPackage

/// A failed system call: the call's name and errno, printable as "open: Permission denied".
package struct SystemError: Error, CustomStringConvertible {
    package var call: String
    package var errno: Errno

    package init(call: String, errno: Errno) { self.call = call; self.errno = errno }
    package init(call: String, errno: Int32) { self.init(call: call, errno: Errno(rawValue: errno)) }

    package var description: String { "\(call): \(errno)" }
}

/// "Permission denied" for an errno value (swift-system's wording, which is strerror's).
package func describe(errno: Int32) -> String { Errno(rawValue: errno).description }

/// Runs a system call that returns -1 on failure, retrying on EINTR (like swift-nio's
/// `syscall(blocking:)`), and throws `SystemError` for any other failure. The one EINTR loop for
/// calls swift-system does not wrap (epoll, timerfd, eventfd, signalfd, inotify); file
/// descriptors swift-system does wrap are opened and read through `FileDescriptor`.
@discardableResult
package func syscall<T: FixedWidthInteger>(_ name: String, _ body: () -> T) throws -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let err = Glibc.errno
        if err == EINTR { continue }
        throw SystemError(call: name, errno: err)
    }
}
