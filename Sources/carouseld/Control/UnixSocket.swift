import CarouselCore
import CLinux
import Glibc

/// The Unix stream sockets of the control interface: a listening one for the daemon and a
/// connected one for `carouseld ctl`. Non-blocking and close-on-exec.
enum UnixSocket {
    /// The longest path `sockaddr_un` holds (108 bytes with its NUL).
    static let maxPath = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Binds and listens at `path` (a stale socket file from a crashed run is replaced) with
    /// `mode` on the file.
    static func listen(at path: String, mode: mode_t) throws -> OwnedDescriptor {
        let socket = try OwnedDescriptor("socket") {
            Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        var address = try address(path)
        unlink(path)
        try syscall("bind \(path)") {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        // The unit's UMask=0077 made it owner-only; the group (carouseld) may talk to it too.
        try syscall("chmod \(path)") { chmod(path, mode) }
        try syscall("listen") { Glibc.listen(socket.rawValue, 32) }
        return socket
    }

    /// Connects to the socket at `path` (blocking, for the command-line client).
    static func connect(to path: String) throws -> OwnedDescriptor {
        let socket = try OwnedDescriptor("socket") {
            Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        var address = try address(path)
        try syscall("connect \(path)") {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(socket.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }
        return socket
    }

    /// The next waiting client, made non-blocking and close-on-exec; nil when none is waiting.
    /// (accept4 would do both at once, but Glibc's Swift module hides it behind _GNU_SOURCE.)
    static func accept(_ listener: Int32) -> OwnedDescriptor? {
        guard let client = try? OwnedDescriptor("accept", { Glibc.accept(listener, nil, nil) }) else { return nil }
        _ = fcntl(client.rawValue, F_SETFL, fcntl(client.rawValue, F_GETFL) | O_NONBLOCK)
        _ = fcntl(client.rawValue, F_SETFD, FD_CLOEXEC)
        return client
    }

    /// The peer's uid and pid (SO_PEERCRED).
    static func peer(_ fd: Int32) -> (uid: UInt32, pid: Int32)? {
        var uid: UInt32 = 0, pid: Int32 = 0
        return carouseld_peer_credentials(fd, &uid, &pid) == 0 ? (uid, pid) : nil
    }

    private static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maxPath else {
            throw ControlError("socket path \(path) is empty or longer than \(maxPath) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}
