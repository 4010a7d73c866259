@testable import CarouselCore
import CLinux
import Glibc
import XCTest
@testable import carouseld

final class ControlRequestTests: XCTestCase {
    func testEveryRequestIsRead() {
        XCTAssertEqual(try ControlRequest.parse("status").get(), .status)
        XCTAssertEqual(try ControlRequest.parse("  NEXT\r").get(), .next)
        XCTAssertEqual(try ControlRequest.parse("prev").get(), .prev)
        XCTAssertEqual(try ControlRequest.parse("goto 3").get(), .goto(.number(3)))
        XCTAssertEqual(try ControlRequest.parse("goto beach day.jpg").get(), .goto(.name("beach day.jpg")))
        XCTAssertEqual(try ControlRequest.parse("pause").get(), .pause)
        XCTAssertEqual(try ControlRequest.parse("resume").get(), .resume)
        XCTAssertEqual(try ControlRequest.parse("reload").get(), .reload)
        XCTAssertEqual(try ControlRequest.parse("screen Off").get(), .screen(.off))
        XCTAssertEqual(try ControlRequest.parse("screenshot png").get(), .screenshot(.init(format: .png)))
        XCTAssertEqual(try ControlRequest.parse("screenshot jpg scale=0.5 output=HDMI-A-2").get(),
                       .screenshot(.init(format: .jpg, scale: 0.5, output: "HDMI-A-2")))
        XCTAssertEqual(try ControlRequest.parse("writeback 30").get(), .writeback(frames: 30))
    }

    func testMalformedRequestsSayWhatIsWrong() {
        func message(_ line: String) -> String? {
            if case .failure(let error) = ControlRequest.parse(line) { return error.message }
            return nil
        }
        XCTAssertEqual(message(""), "empty request; requests: \(ControlRequest.names)")
        XCTAssertEqual(message("dance"), "unknown request \"dance\"; requests: \(ControlRequest.names)")
        XCTAssertEqual(message("next 2"), "next takes no argument")
        XCTAssertEqual(message("goto"), "goto needs a picture: goto N (1-based) or goto NAME")
        XCTAssertEqual(message("goto 0"), "goto 0: pictures are counted from 1")
        XCTAssertEqual(message("screen dim"), "screen takes on, off or auto")
        XCTAssertEqual(message("screenshot gif"), "screenshot takes png or jpg, then scale=F and output=NAME if wanted")
        XCTAssertEqual(message("writeback 0"), "writeback takes a number of frames, 1...600")
        XCTAssertEqual(message("writeback"), "writeback takes a number of frames, 1...600")
        XCTAssertEqual(message("screenshot png scale=9"), "screenshot: scale=9: expected scale=F (0 < F <= 4) or output=NAME")
    }
}

/// A test client kept in an array (a non-copyable descriptor cannot be an element itself).
private final class Client {
    let socket: OwnedDescriptor
    init(_ socket: consuming OwnedDescriptor) { self.socket = socket }
}

/// The server on a real Unix socket and a real event loop, with blocking test clients.
final class ControlServerTests: XCTestCase {
    private var directory = ""
    private var loop: EventLoop!
    private var server: ControlServer!
    private var requests: [ControlRequest] = []
    /// The descriptor each request came with, as the answer saw it.
    private var passedFiles: [Int32?] = []

    override func setUpWithError() throws {
        var template = Array("/tmp/carouseld-control-XXXXXX".utf8CString)
        directory = String(cString: try XCTUnwrap(mkdtemp(&template)))
        loop = try EventLoop()
        server = try ControlServer(path: directory + "/control", loop: loop) { [unowned self] request, _, file in
            requests.append(request)
            passedFiles.append(file)
            if let file { _ = Glibc.write(file, "passed\n", 7) }
            return request == .status ? ControlReply(ok: true, showing: "showing 1/1 a.jpg") : .done()
        }
    }

    override func tearDown() {
        server = nil
        rmdir(directory)
    }

    private func connect() throws -> OwnedDescriptor {
        let socket = try UnixSocket.connect(to: directory + "/control")
        try loop.runOnce(timeoutMilliseconds: 100)   // accept
        return socket
    }

    private func send(_ text: String, on socket: borrowing OwnedDescriptor) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(socket.rawValue, $0.baseAddress, $0.count, 0) }
    }

    /// Runs the loop until `count` answer lines arrived on `socket`.
    private func answers(_ count: Int, on socket: borrowing OwnedDescriptor) throws -> [ControlReply] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<200 where received.filter({ $0 == 10 }).count < count {
            try loop.runOnce(timeoutMilliseconds: 10)
            let n = buffer.withUnsafeMutableBytes { recv(socket.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { received += buffer[..<n] }
        }
        return received.split(separator: 10).compactMap { ControlReply.decode(Array($0)) }
    }

    /// `ctl screenshot` opens the file and passes it: the answer writes into it with the
    /// client's rights, and the daemon's copy is closed once the request is answered.
    func testADescriptorPassedWithARequestIsTheAnswersAndThenClosed() throws {
        let client = try connect()
        var template = Array("/tmp/carouseld-passed-XXXXXX".utf8CString)
        let file = mkstemp(&template)
        defer { close(file); unlink(template) }
        let line = Array("screenshot png\n".utf8)
        XCTAssertEqual(line.withUnsafeBytes { carouseld_send_with_fd(client.rawValue, $0.baseAddress, $0.count, file) }, line.count)
        let replies = try answers(1, on: client)
        XCTAssertEqual(replies.map(\.ok), [true])
        XCTAssertEqual(requests, [.screenshot(.init(format: .png))])
        let passed = try XCTUnwrap(passedFiles.first ?? nil)
        XCTAssertEqual(fcntl(passed, F_GETFD), -1, "the daemon's copy is closed after the answer")
        var contents = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(pread(file, &contents, 16, 0), 7)
        XCTAssertEqual(String(decoding: contents.prefix(7), as: UTF8.self), "passed\n")
        send("status\n", on: client)
        _ = try answers(1, on: client)
        XCTAssertEqual(passedFiles, [passed, nil], "a later request comes with no descriptor")
    }

    func testTheSocketIsForTheGroupToo() throws {
        var info = stat()
        XCTAssertEqual(stat(directory + "/control", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o660)
    }

    func testRequestsOnOneConnectionAreAnsweredInOrderAndAMalformedOneKeepsItUsable() throws {
        let client = try connect()
        send("status\nbogus request\nnext\n", on: client)
        let replies = try answers(3, on: client)
        XCTAssertEqual(replies.map(\.ok), [true, false, true])
        XCTAssertEqual(replies[0].showing, "showing 1/1 a.jpg")
        XCTAssertEqual(replies[1].error?.hasPrefix("unknown request \"bogus\""), true)
        XCTAssertEqual(requests, [.status, .next])
    }

    func testARequestSplitAcrossWritesIsPutTogether() throws {
        let client = try connect()
        send("sta", on: client)
        try loop.runOnce(timeoutMilliseconds: 20)
        send("tus\n", on: client)
        XCTAssertEqual(try answers(1, on: client).map(\.ok), [true])
        XCTAssertEqual(requests, [.status])
    }

    func testAnOverlongRequestIsRefusedAndTheNextOneWorks() throws {
        let client = try connect()
        send(String(repeating: "x", count: 10_000) + "\nstatus\n", on: client)
        let replies = try answers(2, on: client)
        XCTAssertEqual(replies.map(\.error), ["request longer than 4096 bytes", nil])
        XCTAssertEqual(requests, [.status], "nothing of the long line was taken for a request")
    }

    func testBinaryGarbageGetsAnErrorNotACrash() throws {
        let client = try connect()
        let bytes: [UInt8] = [0xFF, 0xFE, 0x00, 0x41, 10]
        _ = bytes.withUnsafeBytes { Glibc.send(client.rawValue, $0.baseAddress, $0.count, 0) }
        XCTAssertEqual(try answers(1, on: client).first?.error, "request is not UTF-8 text")
    }

    func testTheSeventeenthClientIsToldItIsBusyAndTheOthersStayServed() throws {
        var clients: [Client] = []
        for _ in 0..<16 { clients.append(Client(try connect())) }
        XCTAssertEqual(server.clientCount, 16)
        let extra = try connect()
        XCTAssertEqual(try answers(1, on: extra).first?.error, "busy: 16 clients are connected; try again")
        XCTAssertEqual(server.clientCount, 16)
        send("status\n", on: clients[15].socket)
        XCTAssertEqual(try answers(1, on: clients[15].socket).first?.ok, true)
        clients.removeAll()   // closed: their slots free up
        for _ in 0..<5 { try loop.runOnce(timeoutMilliseconds: 10) }
        XCTAssertEqual(server.clientCount, 0)
    }

    func testTheSocketFileGoesWithTheServer() throws {
        server = nil
        XCTAssertNotEqual(access(directory + "/control", F_OK), 0)
    }
}

final class StateFileTests: XCTestCase {
    func testTheStateIsRewrittenWholeForMonitoringAgents() throws {
        var template = Array("/tmp/carouseld-state-XXXXXX".utf8CString)
        let directory = String(cString: try XCTUnwrap(mkdtemp(&template)))
        defer { unlink(directory + "/state.json"); rmdir(directory) }
        let file = StateFile(path: directory + "/state.json")
        var status = DaemonStatus(
            showing: .init(index: 2, count: 5, name: "b.jpg", playlist: "/etc/carouseld/playlist.m3u", outputs: []),
            display: .init(screen: "on", screenReason: "scheduled", sync: "synced", paused: false),
            process: .init(generation: 3, configError: nil, uptime: 12.5, frames: 99))
        file.write(status)
        status.showing.index = 3
        file.write(status)
        let text = try String(contentsOfFile: directory + "/state.json", encoding: .utf8)
        XCTAssertTrue(text.contains("\"index\":3"), text)
        XCTAssertTrue(text.contains("\"screen_reason\":\"scheduled\""), text)
        XCTAssertTrue(text.contains("\"playlist\":\"/etc/carouseld/playlist.m3u\""), "slashes unescaped: \(text)")
        XCTAssertNotEqual(access(directory + "/state.json.tmp", F_OK), 0, "no temporary file left")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        XCTAssertEqual(try decoder.decode(DaemonStatus.self, from: Data(text.utf8)), status, "one flat object reads back whole")
    }
}
