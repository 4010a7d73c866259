import Foundation
import Glibc

/// A unix datagram socket standing in for systemd's: binds it, points NOTIFY_SOCKET at it,
/// and returns what sd_notify sent.
package final class NotifySocket {
    private let directory: ConfigTestDirectory
    private let fd: Int32

    package init() throws {
        directory = try ConfigTestDirectory()
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        let path = directory.url("notify")
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            path.utf8CString.withUnsafeBytes { buffer.copyMemory(from: $0) }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        setenv("NOTIFY_SOCKET", path, 1)
    }

    deinit {
        unsetenv("NOTIFY_SOCKET")
        close(fd)
    }

    /// Every datagram received so far, oldest first.
    package func messages() -> [String] {
        var received: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return received }
            received.append(String(decoding: buffer[..<n], as: UTF8.self))
        }
    }
}
