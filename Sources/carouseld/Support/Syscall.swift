import Glibc

/// A failed system call: the call's name and errno, printable as "open: Permission denied".
struct SystemError: Error, CustomStringConvertible {
    var call: String
    var errno: Int32
    var description: String { "\(call): \(String(cString: strerror(errno)))" }
}

/// Runs a system call that returns -1 on failure, retrying on EINTR (like swift-nio's
/// `syscall(blocking:)`), and throws `SystemError` for any other failure.
@discardableResult
func syscall<T: FixedWidthInteger>(_ name: String, _ body: () -> T) throws -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let err = Glibc.errno
        if err == EINTR { continue }
        throw SystemError(call: name, errno: err)
    }
}
