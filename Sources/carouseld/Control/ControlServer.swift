import CarouselCore
import CLinux
import Glibc

/// The daemon's control socket (`/run/carouseld/control`): one request per line (at most
/// 4 KB), one JSON line per answer, any number of requests per connection. It never blocks the
/// event loop: every socket is non-blocking, at most 16 clients are served at once (more are
/// told so and closed), a malformed or unknown request gets `{"error":…}` and the connection
/// stays usable, and a client that does not read its answers is dropped.
final class ControlServer {
    static let maxRequestBytes = 4096
    static let maxClients = 16

    let path: String
    private let listener: OwnedDescriptor
    private var listenerWatch: Watch?
    private var clients: [Int32: Client] = [:]
    private unowned let loop: EventLoop
    /// Does what a request asks (the daemon); `uid` is the peer's, for the log; `file` a
    /// descriptor the client passed with the request (`ctl screenshot`), closed afterwards.
    private let answer: (_ request: ControlRequest, _ uid: UInt32, _ file: Int32?) -> ControlReply

    private final class Client {
        let socket: OwnedDescriptor
        let uid: UInt32
        var pending: [UInt8] = []
        /// The current line grew past the limit: it is skipped up to its newline.
        var discarding = false
        /// Dropped before the socket closes (`drop`).
        var watch: Watch?
        /// A descriptor that came with the client's bytes, for its next request.
        var passed: OwnedDescriptor?
        init(socket: consuming OwnedDescriptor, uid: UInt32) { self.socket = socket; self.uid = uid }
    }

    init(path: String, loop: EventLoop, answer: @escaping (_ request: ControlRequest, _ uid: UInt32, _ file: Int32?) -> ControlReply) throws {
        self.path = path; self.answer = answer
        self.loop = loop
        listener = try UnixSocket.listen(at: path, mode: 0o660)
        listenerWatch = try loop.watch(listener.rawValue, name: "control socket", owner: self) { $0.acceptWaiting() }
        Log.info("control socket \(path)")
    }

    deinit {
        for client in clients.values { client.watch = nil }
        listenerWatch = nil
        unlink(path)
    }

    var clientCount: Int { clients.count }

    private func acceptWaiting() {
        while let socket = UnixSocket.accept(listener.rawValue) {
            let fd = socket.rawValue
            let peer = UnixSocket.peer(fd)
            guard clients.count < Self.maxClients else {
                _ = send(ControlReply.failure("busy: \(Self.maxClients) clients are connected; try again").line(), to: fd)
                // Closing with unread requests would reset the connection, and the client would
                // lose the answer: read what it already sent first.
                var sink = [UInt8](repeating: 0, count: 4096)
                while sink.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
                Log.debug("control: refused uid \(peer.map { "\($0.uid)" } ?? "?"): \(Self.maxClients) clients connected")
                continue   // closed as `socket` goes
            }
            Log.debug("control: client uid \(peer.map { "\($0.uid) pid \($0.pid)" } ?? "?") connected")
            do {
                let watch = try loop.watch(fd, name: "control client", owner: self) { $0.readable(fd) }
                let client = Client(socket: socket, uid: peer?.uid ?? UInt32.max)
                client.watch = watch
                clients[fd] = client
            } catch {
                Log.warning("control: watching a client: \(error)")
            }
        }
    }

    private func readable(_ fd: Int32) {
        guard let client = clients[fd] else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        // At most 64 KB a turn: a client that floods the socket cannot hold the loop.
        for _ in 0..<16 {
            var file: Int32 = -1
            let count = buffer.withUnsafeMutableBytes { carouseld_receive_with_fd(fd, $0.baseAddress, $0.count, &file) }
            if file >= 0 { client.passed = OwnedDescriptor(adopting: file) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            guard count > 0 else { return drop(fd) }   // end of file or an error
            for byte in buffer[..<count] where clients[fd] != nil { take(byte, from: client, fd: fd) }
            if clients[fd] == nil { return }
        }
    }

    private func take(_ byte: UInt8, from client: Client, fd: Int32) {
        if byte == UInt8(ascii: "\n") {
            if client.discarding { client.discarding = false; return }
            let line = client.pending
            client.pending.removeAll(keepingCapacity: true)
            return reply(to: line, from: client, fd: fd)
        }
        guard !client.discarding else { return }
        client.pending.append(byte)
        if client.pending.count > Self.maxRequestBytes {
            client.pending.removeAll()
            client.discarding = true
            reply(ControlReply.failure("request longer than \(Self.maxRequestBytes) bytes"), fd: fd)
        }
    }

    private func reply(to line: [UInt8], from client: Client, fd: Int32) {
        guard let text = String(validating: line, as: UTF8.self), !line.contains(0) else {
            return reply(.failure("request is not UTF-8 text"), fd: fd)
        }
        switch ControlRequest.parse(text) {
        case .failure(let error): reply(.failure(error.message), fd: fd)
        case .success(let request):
            // The passed descriptor is the request's: closed once it is answered.
            defer { client.passed = nil }
            reply(answer(request, client.uid, client.passed?.rawValue), fd: fd)
        }
    }

    private func reply(_ reply: ControlReply, fd: Int32) {
        if !send(reply.line(), to: fd) {
            Log.info("control: dropping a client that does not read its answers")
            drop(fd)
        }
    }

    /// Writes all of `bytes` without waiting; false when the socket's buffer is full or gone.
    private func send(_ bytes: [UInt8], to fd: Int32) -> Bool {
        let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return written == bytes.count
    }

    private func drop(_ fd: Int32) {
        clients[fd]?.watch = nil
        clients[fd] = nil
    }
}
