import CarouselConfig
import CarouselCore
import CarouselPixels

/// One line of the control socket's protocol, read. Pure, so every message is tested.
enum ControlRequest: Equatable, Sendable {
    case status
    case next
    case prev
    /// `goto 3` (1-based, as the status line counts) or `goto beach.jpg` (a picture's name).
    case goto(Target)
    case pause
    case resume
    case reload
    case screen(ScreenPower.Override)
    /// `screenshot png|jpg [scale=F] [output=NAME]`: the frame on screen into the file the
    /// client passed with the request (SCM_RIGHTS).
    case screenshot(Screenshot)
    /// `writeback N`: the first screen's next N frames read back by the display engine, into
    /// the directory the client passed with the request (1...600).
    case writeback(frames: Int)

    struct Screenshot: Equatable, Sendable {
        var format: FrameSnapshot.Format
        var scale = 1.0
        var output: String?
    }

    enum Target: Equatable, Sendable {
        case number(Int)
        case name(String)
    }

    static let names = "status, next, prev, goto N|NAME, pause, resume, reload, screen on|off|auto, screenshot png|jpg, writeback N"

    /// The request in `line` (without its newline), or a message saying what is wrong with it.
    static func parse(_ line: String) -> Result<ControlRequest, ControlError> {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        guard let verb = words.first?.lowercased() else { return .failure(ControlError("empty request; requests: \(names)")) }
        let rest = Array(words.dropFirst())
        func noArguments(_ request: ControlRequest) -> Result<ControlRequest, ControlError> {
            rest.isEmpty ? .success(request) : .failure(ControlError("\(verb) takes no argument"))
        }
        switch verb {
        case "status": return noArguments(.status)
        case "next": return noArguments(.next)
        case "prev", "previous": return noArguments(.prev)
        case "pause": return noArguments(.pause)
        case "resume": return noArguments(.resume)
        case "reload": return noArguments(.reload)
        case "goto":
            guard !rest.isEmpty else { return .failure(ControlError("goto needs a picture: goto N (1-based) or goto NAME")) }
            let argument = rest.joined(separator: " ")
            if let number = Int(argument) {
                return number >= 1 ? .success(.goto(.number(number)))
                    : .failure(ControlError("goto \(argument): pictures are counted from 1"))
            }
            return .success(.goto(.name(argument)))
        case "screen":
            guard rest.count == 1, let mode = ScreenPower.Override(rawValue: rest[0].lowercased()) else {
                return .failure(ControlError("screen takes on, off or auto"))
            }
            return .success(.screen(mode))
        case "screenshot":
            return Screenshot.parse(rest).map { .screenshot($0) }
        case "writeback":
            guard rest.count == 1, let frames = Int(rest[0]), (1...600).contains(frames) else {
                return .failure(ControlError("writeback takes a number of frames, 1...600"))
            }
            return .success(.writeback(frames: frames))
        default:
            let shown = verb.count > 40 ? String(verb.prefix(40)) + "…" : verb
            return .failure(ControlError("unknown request \"\(shown)\"; requests: \(names)"))
        }
    }
}

extension ControlRequest: CustomStringConvertible {
    /// The request as a line of the protocol (for the log).
    var description: String {
        switch self {
        case .status: return "status"
        case .next: return "next"
        case .prev: return "prev"
        case .goto(.number(let n)): return "goto \(n)"
        case .goto(.name(let name)): return "goto \(name)"
        case .pause: return "pause"
        case .resume: return "resume"
        case .reload: return "reload"
        case .screen(let mode): return "screen \(mode.rawValue)"
        case .writeback(let frames): return "writeback \(frames)"
        case .screenshot(let shot):
            return "screenshot \(shot.format.rawValue)" + (shot.scale == 1 ? "" : " scale=\(shot.scale)")
                + (shot.output.map { " output=\($0)" } ?? "")
        }
    }
}

extension ControlRequest.Screenshot {
    /// `png|jpg [scale=F] [output=NAME]`.
    static func parse(_ words: [String]) -> Result<Self, ControlError> {
        guard let first = words.first, let format = FrameSnapshot.Format(rawValue: first.lowercased()) else {
            return .failure(ControlError("screenshot takes png or jpg, then scale=F and output=NAME if wanted"))
        }
        var shot = Self(format: format)
        for word in words.dropFirst() {
            if word.hasPrefix("scale="), let scale = Double(word.dropFirst(6)), scale > 0, scale <= 4 {
                shot.scale = scale
            } else if word.hasPrefix("output="), word.count > 7 {
                shot.output = String(word.dropFirst(7))
            } else {
                return .failure(ControlError("screenshot: \(word): expected scale=F (0 < F <= 4) or output=NAME"))
            }
        }
        return .success(shot)
    }
}

/// What the control socket answers when a request cannot be done.
struct ControlError: Error, Equatable, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}
