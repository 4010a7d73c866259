import Foundation
import Yams

/// Reads `libinput record` YAML with Yams. Every error names the file and the line: YAML syntax
/// errors carry libyaml's mark, structural ones the mark of the node that is wrong.
/// Keys the format does not define are ignored, as libinput-record(1) asks of parsers.
enum RecordingParser {
    static func load(path: String) throws -> Recording {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RecordingError(path: path, line: nil, message: "cannot read the file (\(error.localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw RecordingError(path: path, line: nil, message: "not UTF-8 text, so not a libinput recording")
        }
        return try parse(text, path: path)
    }

    static func parse(_ text: String, path: String) throws -> Recording {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw syntaxError(error, path: path, text: text)
        }
        let p = Structure(path: path)
        guard let root, let top = root.mapping else {
            throw p.error(root, "expected a libinput recording (a mapping with a 'devices' list)")
        }
        guard let devicesNode = top["devices"] else {
            throw p.error(root, "no 'devices' list: not a libinput recording")
        }
        guard let devices = devicesNode.sequence, !devices.isEmpty else {
            throw p.error(devicesNode, "'devices' must be a non-empty list")
        }
        return Recording(path: path, devices: try devices.map { try p.device($0) })
    }

    private static func syntaxError(_ error: YamlError, path: String, text: String) -> RecordingError {
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            // libyaml names the line where it noticed; the context names where the broken part began.
            let began = context.map { " \($0.text) that starts on line \($0.mark.line)" } ?? ""
            return RecordingError(path: path, line: mark.line, message: "invalid YAML: \(problem)\(began)")
        case .reader(let problem, let offset, _, _):
            let line = offset.map { off in text.utf8.prefix(off).reduce(1) { $1 == 10 ? $0 + 1 : $0 } }
            return RecordingError(path: path, line: line, message: "unreadable YAML: \(problem)")
        default:
            return RecordingError(path: path, line: nil, message: "invalid YAML: \(error)")
        }
    }
}

/// The structural checks, each failing with the line of the offending node.
private struct Structure {
    let path: String

    func error(_ node: Node?, _ message: String) -> RecordingError {
        RecordingError(path: path, line: node?.mark?.line, message: message)
    }

    func device(_ node: Node) throws -> RecordedDevice {
        guard let device = node.mapping else { throw error(node, "a device must be a mapping with 'evdev' and 'events'") }
        guard let evdevNode = device["evdev"], let evdev = evdevNode.mapping else {
            throw error(node, "device has no 'evdev' description")
        }
        let name = evdev["name"]?.scalar?.string ?? "unnamed device"
        var codes: [Int: Set<Int>] = [:]
        if let codesNode = evdev["codes"] {
            guard let map = codesNode.mapping else { throw error(codesNode, "'codes' must map an event type to a list of codes") }
            for (typeNode, list) in map {
                codes[try int(typeNode, "an event type")] = Set(try ints(list, "a list of event codes"))
            }
        }
        var absinfo: [Int: AbsInfo] = [:]
        if let absNode = evdev["absinfo"] {
            guard let map = absNode.mapping else { throw error(absNode, "'absinfo' must map an axis code to [min, max, fuzz, flat, resolution]") }
            for (codeNode, valueNode) in map {
                let v = try ints(valueNode, "[min, max, fuzz, flat, resolution]")
                guard v.count == 5 else { throw error(valueNode, "absinfo needs 5 numbers [min, max, fuzz, flat, resolution], found \(v.count)") }
                guard v[1] > v[0] else { throw error(valueNode, "absinfo maximum \(v[1]) is not above minimum \(v[0])") }
                absinfo[try int(codeNode, "an axis code")] = AbsInfo(minimum: v[0], maximum: v[1], fuzz: v[2], flat: v[3], resolution: v[4])
            }
        }
        let properties = Set(try evdev["properties"].map { try ints($0, "a list of input properties") } ?? [])
        let udevProperties = device["udev"]?.mapping?["properties"]?.sequence?.compactMap { $0.scalar?.string } ?? []
        var frames: [EvdevFrame] = []
        if let eventsNode = device["events"], !isNull(eventsNode) {
            guard let entries = eventsNode.sequence else { throw error(eventsNode, "'events' must be a list") }
            for entry in entries {
                guard let map = entry.mapping else { throw error(entry, "an 'events' entry must be a mapping such as 'evdev: [...]'") }
                guard let list = map["evdev"] else { continue }  // hid and libinput entries are not replayed
                frames.append(try frame(list))
            }
        }
        return RecordedDevice(name: name, line: node.mark?.line ?? 0, codes: codes, absinfo: absinfo,
                              properties: properties, udevProperties: udevProperties, frames: frames)
    }

    private func frame(_ node: Node) throws -> EvdevFrame {
        guard let list = node.sequence, !list.isEmpty else { throw error(node, "'evdev' must be a non-empty list of [sec, usec, type, code, value]") }
        var events: [EvdevEvent] = []
        for item in list {
            let v = try ints(item, "[sec, usec, type, code, value]")
            guard v.count == 5 else { throw error(item, "an evdev event needs 5 numbers [sec, usec, type, code, value], found \(v.count)") }
            guard v[0] >= 0, (0..<1_000_000).contains(v[1]) else { throw error(item, "timestamp \(v[0]) s \(v[1]) µs is out of range") }
            guard let type = Int32(exactly: v[2]), let code = Int32(exactly: v[3]), let value = Int32(exactly: v[4]) else {
                throw error(item, "type, code or value does not fit 32 bits")
            }
            events.append(EvdevEvent(usec: Int64(v[0]) * 1_000_000 + Int64(v[1]), type: type, code: code, value: value))
        }
        let last = events[events.count - 1]
        guard last.type == 0, last.code == 0 else {
            throw error(list[list.endIndex - 1], "an evdev frame must end with SYN_REPORT [sec, usec, 0, 0, 0]")
        }
        return EvdevFrame(line: node.mark?.line ?? 0, events: events)
    }

    private func int(_ node: Node, _ what: String) throws -> Int {
        guard let s = node.scalar?.string, let v = Int(s) else { throw error(node, "expected \(what), found \(describe(node))") }
        return v
    }

    private func ints(_ node: Node, _ what: String) throws -> [Int] {
        guard let seq = node.sequence else { throw error(node, "expected \(what), found \(describe(node))") }
        return try seq.map { try int($0, "a whole number in \(what)") }
    }

    /// `events:` with nothing after it: a device that sent nothing.
    private func isNull(_ node: Node) -> Bool {
        node.scalar.map { ["", "~", "null", "Null", "NULL"].contains($0.string) } ?? false
    }

    private func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s): return "'\(s.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }
}
