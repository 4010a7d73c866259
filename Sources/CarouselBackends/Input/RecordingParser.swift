import CarouselConfig
import CarouselCore
/// Reads `libinput record` YAML through Debian's libyaml (`YAMLTree`). Every error names the
/// file and the line: YAML syntax errors carry libyaml's mark, structural ones the line of the
/// node that is wrong. Keys the format does not define are ignored, as libinput-record(1) asks.
package enum RecordingParser {
    /// Recordings of long sessions reach a few MB; anything far beyond is not a recording.
    package static let sizeLimit = 64 << 20
    /// Latest event time in seconds: microseconds since the start must fit 64 bits.
    package static let maxSeconds = Int(Int64.max / 1_000_000) - 1

    package static func load(path: String) throws -> Recording {
        let bytes: [UInt8]
        do {
            bytes = try FileReading.read(path, limit: sizeLimit)
        } catch {
            throw RecordingError(path: path, line: nil, message: "cannot read the file (\(FileReading.message(error)))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RecordingError(path: path, line: nil, message: "not UTF-8 text, so not a libinput recording")
        }
        return try parse(text, path: path)
    }

    package static func parse(_ text: String, path: String) throws -> Recording {
        let root: YAMLNode?
        do {
            root = try YAMLTree.parse(text)
        } catch {
            throw syntaxError(error, path: path, text: text)
        }
        let p = Structure(path: path)
        guard let root, root.pairs != nil else {
            throw p.error(root, "expected a libinput recording (a mapping with a 'devices' list)")
        }
        guard let devicesNode = root["devices"] else {
            throw p.error(root, "no 'devices' list: not a libinput recording")
        }
        guard let devices = devicesNode.items, !devices.isEmpty else {
            throw p.error(devicesNode, "'devices' must be a non-empty list")
        }
        return Recording(path: path, devices: try devices.map { try p.device($0) })
    }

    private static func syntaxError(_ error: YAMLSyntaxError, path: String, text: String) -> RecordingError {
        if error.context == "reader" {
            let line = error.contextLine.map { off in text.utf8.prefix(off).reduce(1) { $1 == 10 ? $0 + 1 : $0 } }
            return RecordingError(path: path, line: line, message: "unreadable YAML: \(error.problem)")
        }
        // libyaml names the line where it noticed; the context names where the broken part began.
        let began = error.context.map { " \($0) that starts on line \(error.contextLine ?? 0)" } ?? ""
        return RecordingError(path: path, line: error.line, message: "invalid YAML: \(error.problem)\(began)")
    }
}

/// The structural checks, each failing with the line of the offending node.
private struct Structure {
    package let path: String

    package func error(_ node: YAMLNode?, _ message: String) -> RecordingError {
        RecordingError(path: path, line: node?.line, message: message)
    }

    package func device(_ node: YAMLNode) throws -> RecordedDevice {
        guard node.pairs != nil else { throw error(node, "a device must be a mapping with 'evdev' and 'events'") }
        guard let evdev = node["evdev"], evdev.pairs != nil else {
            throw error(node, "device has no 'evdev' description")
        }
        let name = evdev["name"]?.string ?? "unnamed device"
        var codes: [Int: Set<Int>] = [:]
        if let codesNode = evdev["codes"] {
            guard let map = codesNode.pairs else { throw error(codesNode, "'codes' must map an event type to a list of codes") }
            for (typeNode, list) in map {
                codes[try int(typeNode, "an event type")] = Set(try ints(list, "a list of event codes"))
            }
        }
        var absinfo: [Int: AbsInfo] = [:]
        if let absNode = evdev["absinfo"] {
            guard let map = absNode.pairs else { throw error(absNode, "'absinfo' must map an axis code to [min, max, fuzz, flat, resolution]") }
            for (codeNode, valueNode) in map {
                let v = try ints(valueNode, "[min, max, fuzz, flat, resolution]")
                guard v.count == 5 else { throw error(valueNode, "absinfo needs 5 numbers [min, max, fuzz, flat, resolution], found \(v.count)") }
                // struct input_absinfo holds 32-bit values; wider ones would overflow the mapping.
                guard v.allSatisfy({ Int32(exactly: $0) != nil }) else { throw error(valueNode, "absinfo values must fit 32 bits") }
                guard v[1] > v[0] else { throw error(valueNode, "absinfo maximum \(v[1]) is not above minimum \(v[0])") }
                absinfo[try int(codeNode, "an axis code")] = AbsInfo(minimum: v[0], maximum: v[1], fuzz: v[2], flat: v[3], resolution: v[4])
            }
        }
        let properties = Set(try evdev["properties"].map { try ints($0, "a list of input properties") } ?? [])
        let udevProperties = node["udev"]?["properties"]?.items?.compactMap { $0.string } ?? []
        var frames: [EvdevFrame] = []
        var latest: Int64 = 0
        if let eventsNode = node["events"], !isNull(eventsNode) {
            guard let entries = eventsNode.items else { throw error(eventsNode, "'events' must be a list") }
            for entry in entries {
                guard entry.pairs != nil else { throw error(entry, "an 'events' entry must be a mapping such as 'evdev: [...]'") }
                guard let list = entry["evdev"] else { continue }  // hid and libinput entries are not replayed
                frames.append(try frame(list, after: &latest))
            }
        }
        return RecordedDevice(name: name, line: node.line, codes: codes, absinfo: absinfo,
                              properties: properties, udevProperties: udevProperties, frames: frames)
    }

    /// One `evdev:` entry. Its times must not go back from `latest` (the device's previous
    /// event), which it then advances: libinput record writes each device's events as the
    /// kernel stamped them, in order, so a time going back means a damaged or edited file.
    /// Such a file is refused rather than reordered, so a replay is never a guess.
    private func frame(_ node: YAMLNode, after latest: inout Int64) throws -> EvdevFrame {
        guard let list = node.items, !list.isEmpty else { throw error(node, "'evdev' must be a non-empty list of [sec, usec, type, code, value]") }
        var events: [EvdevEvent] = []
        for item in list {
            let v = try ints(item, "[sec, usec, type, code, value]")
            guard v.count == 5 else { throw error(item, "an evdev event needs 5 numbers [sec, usec, type, code, value], found \(v.count)") }
            guard (0...RecordingParser.maxSeconds).contains(v[0]), (0..<1_000_000).contains(v[1]) else { throw error(item, "timestamp \(v[0]) s \(v[1]) µs is out of range") }
            guard let type = Int32(exactly: v[2]), let code = Int32(exactly: v[3]), let value = Int32(exactly: v[4]) else {
                throw error(item, "type, code or value does not fit 32 bits")
            }
            let usec = Int64(v[0]) * 1_000_000 + Int64(v[1])
            guard usec >= latest else {
                throw error(item, "timestamp \(seconds(usec)) s goes back from \(seconds(latest)) s of the event before; "
                    + "a recording's times only go forward, so this file is damaged or edited")
            }
            latest = usec
            events.append(EvdevEvent(usec: usec, type: type, code: code, value: value))
        }
        let last = events[events.count - 1]
        guard last.type == 0, last.code == 0 else {
            throw error(list[list.endIndex - 1], "an evdev frame must end with SYN_REPORT [sec, usec, 0, 0, 0]")
        }
        return EvdevFrame(line: node.line, events: events)
    }

    /// "1.250000": seconds with the recording's microseconds.
    private func seconds(_ usec: Int64) -> String {
        let micro = String(usec % 1_000_000)
        return "\(usec / 1_000_000)." + String(repeating: "0", count: 6 - micro.count) + micro
    }

    private func int(_ node: YAMLNode, _ what: String) throws -> Int {
        guard let s = node.string, let v = Int(s) else { throw error(node, "expected \(what), found \(describe(node))") }
        return v
    }

    private func ints(_ node: YAMLNode, _ what: String) throws -> [Int] {
        guard let seq = node.items else { throw error(node, "expected \(what), found \(describe(node))") }
        return try seq.map { try int($0, "a whole number in \(what)") }
    }

    /// `events:` with nothing after it: a device that sent nothing.
    private func isNull(_ node: YAMLNode) -> Bool {
        node.string.map { ["", "~", "null", "Null", "NULL"].contains($0) } ?? false
    }

    private func describe(_ node: YAMLNode) -> String {
        switch node {
        case .scalar(let s, _): return "'\(s)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }
}
