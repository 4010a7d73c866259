import CarouselBackends
import CarouselCore
import CarouselPixels
import Glibc

/// `ctl screenshot`: a screen's frame as the daemon last put it on screen (its own buffer, so
/// it works on KMS, fbdev and Wayland alike), written into the file the client passed.
struct Screenshots {
    let outputs: [DisplayOutput]
    /// Each output's name (`[[output]]` tables); nil for the one unnamed screen.
    let names: [String?]

    func take(_ shot: ControlRequest.Screenshot, into file: Int32?) -> ControlReply {
        guard let file else {
            return .failure("screenshot: no file came with the request (carouseld ctl screenshot FILE opens it and passes it)")
        }
        let index: Int
        if let wanted = shot.output {
            guard let found = names.firstIndex(of: wanted) else {
                return .failure("screenshot: no screen \(wanted); screens: \(names.map { $0 ?? "(unnamed)" }.joined(separator: ", "))")
            }
            index = found
        } else {
            index = 0
        }
        let name = names[index] ?? outputs[index].devicePath
        guard let frame = outputs[index].lastFrame else {
            return .failure("screenshot: \(name) shows nothing now (dark, asleep or not configured)")
        }
        do {
            let (width, height) = try FrameSnapshot.write(frame, format: shot.format, scale: shot.scale, to: file)
            return .done("screenshot of \(name): \(width)x\(height) \(shot.format.rawValue)")
        } catch {
            return .failure("screenshot of \(name): \(error)")
        }
    }

    /// `ctl writeback`: the first screen's next frames, read back into the client's directory.
    func writeback(frames: Int, into directory: Int32?) -> ControlReply {
        guard let directory else { return .failure("writeback: no directory came with the request (carouseld ctl writeback DIR N passes it)") }
        // The server closes the request's descriptor after answering; the capture outlives it.
        let own = dup(directory)
        guard own >= 0 else { return .failure("writeback: \(SystemError(call: "dup", errno: errno))") }
        do {
            return .done(try outputs[0].startWriteback(frames: frames, directory: own))
        } catch {
            return .failure("writeback: \(error)")
        }
    }
}
