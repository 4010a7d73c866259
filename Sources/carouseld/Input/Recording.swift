/// A `libinput record` file: each recorded device's description and its kernel events.
/// (Format: libinput-record(1), "FILE FORMAT"; parsed by `RecordingParser`.)
struct Recording: Sendable {
    var path: String
    var devices: [RecordedDevice]
}

/// One recorded device node.
struct RecordedDevice: Sendable {
    var name: String
    /// Line of the device entry in the file, for messages.
    var line: Int
    /// evdev type → the codes the device supports.
    var codes: [Int: Set<Int>]
    /// ABS code → its range and resolution.
    var absinfo: [Int: AbsInfo]
    /// INPUT_PROP_* numbers.
    var properties: Set<Int>
    /// udev properties as "KEY=value".
    var udevProperties: [String]
    var frames: [EvdevFrame]

    func supports(type: Int32, code: Int32) -> Bool { codes[Int(type)]?.contains(Int(code)) == true }
}

/// struct input_absinfo without the current value: [min, max, fuzz, flat, resolution].
struct AbsInfo: Sendable, Equatable {
    var minimum: Int, maximum: Int, fuzz: Int, flat: Int, resolution: Int
}

/// One struct input_event.
struct EvdevEvent: Sendable, Equatable {
    /// Microseconds since the start of the recording.
    var usec: Int64
    var type: Int32
    var code: Int32
    var value: Int32

    var time: Double { Double(usec) / 1_000_000 }
}

/// The events between two SYN_REPORTs, SYN_REPORT included (one `evdev:` entry).
struct EvdevFrame: Sendable {
    var line: Int
    var events: [EvdevEvent]
    var time: Double { events.last?.time ?? 0 }
}

/// A recording that cannot be replayed: the file, the line and the reason.
struct RecordingError: Error, CustomStringConvertible, Equatable {
    var path: String
    /// 1-based; nil when the problem is not at one place (an unreadable file).
    var line: Int?
    var message: String

    var description: String {
        if let line { return "\(path):\(line): \(message)" }
        return "\(path): \(message)"
    }
}
