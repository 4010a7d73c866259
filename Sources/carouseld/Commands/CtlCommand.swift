import ArgumentParser
import CarouselCore
import CLinux
import Glibc

/// `carouseld ctl REQUEST`: asks the running daemon over its control socket and prints the
/// answer for people (or the JSON line with --json). Exit status 1 when the daemon refused.
struct CtlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Ask the running daemon: status, next, prev, goto N|NAME, pause, resume, reload, screen on|off|auto, screenshot FILE.",
        discussion: """
            Talks to the control socket (group carouseld may use it). --json prints the daemon's JSON line.
            screenshot FILE.png|FILE.jpg writes the frame a screen shows now (--output NAME, else the first;
            --scale F for another size), from the daemon's own last frame: this command opens FILE and
            passes it to the daemon, which writes into it.
            """)

    @Option(help: "Control socket (default: $CAROUSELD_CONTROL, else /run/carouseld/control).")
    var socket: String = getenv("CAROUSELD_CONTROL").map { String(cString: $0) } ?? "/run/carouseld/control"

    @Flag(help: "Print the daemon's answer as it sent it: one JSON object.")
    var json = false

    @Option(help: "screenshot: the screen ([[output]] name); default the first.")
    var output: String?

    @Option(help: "screenshot: size relative to the screen, e.g. 0.5.")
    var scale: Double = 1

    @Argument(help: "The request, e.g. status, next, goto 3, screen off, screenshot now.png.")
    var request: [String]

    /// The protocol line for the request; for a screenshot, the file too.
    private func wire() throws -> (line: String, file: String?) {
        if request.first?.lowercased() == "writeback" {
            guard (2...3).contains(request.count) else { throw ValidationError("writeback takes a directory and a number of frames, e.g. writeback /tmp/frames 30") }
            return ("writeback \(request.count == 3 ? request[2] : "30")", request[1])
        }
        guard request.first?.lowercased() == "screenshot" else { return (request.joined(separator: " "), nil) }
        guard request.count == 2 else { throw ValidationError("screenshot takes one file name, e.g. screenshot now.png") }
        let file = request[1]
        let ext = file.split(separator: ".").last.map { $0.lowercased() }
        let format = ext == "png" ? "png" : (ext == "jpg" || ext == "jpeg") ? "jpg" : nil
        guard let format else { throw ValidationError("screenshot \(file): the name must end in .png, .jpg or .jpeg") }
        return ("screenshot \(format) scale=\(scale)" + (output.map { " output=\($0)" } ?? ""), file)
    }

    func validate() throws {
        if case .failure(let error) = ControlRequest.parse(try wire().line) {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        let line: [UInt8]
        do {
            let (text, file) = try wire()
            line = try ask(text, passing: file)
        } catch {
            StandardError.write("carouseld ctl: \(socket): \(error) (is carouseld running, and may this user use its socket?)\n")
            throw ExitCode.failure
        }
        guard let reply = ControlReply.decode(line) else {
            StandardError.write("carouseld ctl: the daemon's answer is not JSON: \(String(decoding: line, as: UTF8.self))\n")
            throw ExitCode.failure
        }
        if json {
            print(String(decoding: line, as: UTF8.self), terminator: "")
        } else if let error = reply.error {
            StandardError.write("carouseld ctl: \(error)\n")
        } else if let status = reply.status {
            Self.describe(status).forEach { print($0) }
        } else {
            print(reply.showing ?? "ok")
        }
        if !reply.ok { throw ExitCode.failure }
    }

    /// Sends one request line (with `file` opened for writing and passed along) and reads the
    /// answer line (5 s at most).
    private func ask(_ text: String, passing file: String? = nil) throws -> [UInt8] {
        let connection = try UnixSocket.connect(to: socket)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(connection.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array((text + "\n").utf8)
        let sent: Int
        if let file {
            let writeback = text.hasPrefix("writeback")   // a directory the frames go into
            let opened = try OwnedDescriptor("open \(file)") {
                writeback ? open(file, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            }
            sent = bytes.withUnsafeBytes { carouseld_send_with_fd(connection.rawValue, $0.baseAddress, $0.count, opened.rawValue) }
        } else {
            sent = bytes.withUnsafeBytes { send(connection.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        guard sent == bytes.count else { throw SystemError(call: "send", errno: errno) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !answer.contains(UInt8(ascii: "\n")) {
            let count = buffer.withUnsafeMutableBytes { recv(connection.rawValue, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw count == 0 ? ControlError("the daemon closed the connection") : SystemError(call: "recv", errno: errno) }
            answer += buffer[..<count]
        }
        return Array(answer.prefix { $0 != UInt8(ascii: "\n") }) + [UInt8(ascii: "\n")]
    }

    /// The status for people, one fact a line.
    static func describe(_ status: DaemonStatus) -> [String] {
        let (showing, display, process) = (status.showing, status.display, status.process)
        var lines = [showing.count == 0 ? "no pictures" : "showing \(showing.index)/\(showing.count) \(showing.name ?? "?")"]
        lines.append("playlist: \(showing.playlist)")
        lines.append("screen: \(display.screen) (\(display.screenReason))")
        if let tv = display.tv { lines.append("tv: \(tv)") }
        if let sync = display.sync { lines.append("sync: \(sync)") }
        if !display.clockSynchronised {
            lines.append("clock: \(display.clock) (the screen schedule, dayparts and sync wait for it)")
        }
        if display.paused { lines.append("paused (ctl resume lets it advance again)") }
        let config = process.configError.map { "the file on disk is invalid: \($0)" } ?? "valid"
        lines.append("config: generation \(process.generation), " + config)
        let seconds = Int(process.uptime)
        lines.append("uptime: \(seconds / 3600)h \(seconds / 60 % 60)m \(seconds % 60)s, \(process.frames) frames drawn")
        for failure in showing.failed ?? [] { lines.append("cannot show: \(failure)") }
        if showing.outputs.count > 1 {
            for carousel in showing.outputs {
                lines.append("\(carousel.output): showing \(carousel.index)/\(carousel.count) \(carousel.name ?? "?")")
            }
        }
        return lines
    }
}

extension ControlError: CustomStringConvertible {
    var description: String { message }
}
