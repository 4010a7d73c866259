import CarouselConfig
import CarouselCore
import CarouselEngine
import FoundationEssentials

/// A tiny timed touch script for `carouseld render --input`, a JSON list such as
/// `[{"t":1.0,"slot":0,"phase":"down","x":900,"y":400}, ...]` (t in seconds, x/y in screen
/// pixels, phase down|move|up|cancel). Entries with the same t form one touch frame.
enum TouchScript {
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "touch script \(path): \(reason)" }
    }

    private struct Entry: Decodable {
        var t: Double
        var slot: Int
        var phase: String
        var x: Double
        var y: Double
    }

    static func load(_ path: String) throws(Failure) -> [TouchFrame] {
        let bytes: [UInt8]
        do { bytes = try FileReading.read(path, limit: 16 << 20) } catch {
            throw Failure(path: path, reason: "cannot read (\(FileReading.message(error)))")
        }
        return try parse(Data(bytes), path: path)
    }

    static func parse(_ data: Data, path: String) throws(Failure) -> [TouchFrame] {
        let entries: [Entry]
        do { entries = try JSONDecoder().decode([Entry].self, from: data) } catch {
            throw Failure(path: path, reason: "not a JSON list of {t, slot, phase, x, y} (\(error))")
        }
        var frames: [TouchFrame] = []
        // The script is the source of its touches: it keeps their record, as the input does.
        var down = Set<Int>()
        for (i, entry) in entries.enumerated() {
            guard entry.t.isFinite, entry.t >= 0 else { throw Failure(path: path, reason: "entry \(i): t \(entry.t) must be >= 0") }
            let phase: TouchPhase
            switch entry.phase {
            case "down": phase = .down
            case "move": phase = .move
            case "up": phase = .up
            case "cancel": phase = .cancel
            default: throw Failure(path: path, reason: "entry \(i): phase \"\(entry.phase)\" is not down, move, up or cancel")
            }
            if let last = frames.last, entry.t < last.time {
                throw Failure(path: path, reason: "entry \(i): t \(entry.t) is earlier than the entry before (\(last.time))")
            }
            let sample = TouchSample(slot: entry.slot, phase: phase, x: entry.x, y: entry.y)
            if phase == .down || phase == .move { down.insert(entry.slot) } else { down.remove(entry.slot) }
            if frames.last?.time == entry.t {
                frames[frames.count - 1].samples.append(sample)
                frames[frames.count - 1].contactsDown = down.count
            } else {
                frames.append(TouchFrame(time: entry.t, samples: [sample], contactsDown: down.count))
            }
        }
        return frames
    }
}
