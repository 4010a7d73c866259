/// A `libinput record` file: each recorded device's description and its kernel events.
/// (Format: libinput-record(1), "FILE FORMAT"; parsed by `RecordingParser`.)
package struct Recording: Sendable {
    package var path: String
    package var devices: [RecordedDevice]
}

/// One recorded device node.
package struct RecordedDevice: Sendable {
    package var name: String
    /// Line of the device entry in the file, for messages.
    package var line: Int
    /// evdev type → the codes the device supports.
    package var codes: [Int: Set<Int>]
    /// ABS code → its range and resolution.
    package var absinfo: [Int: AbsInfo]
    /// INPUT_PROP_* numbers.
    package var properties: Set<Int>
    /// udev properties as "KEY=value".
    package var udevProperties: [String]
    package var frames: [EvdevFrame]

    package func supports(type: Int32, code: Int32) -> Bool { codes[Int(type)]?.contains(Int(code)) == true }
}

/// struct input_absinfo without the current value: [min, max, fuzz, flat, resolution].
package struct AbsInfo: Sendable, Equatable {
    package var minimum: Int, maximum: Int, fuzz: Int, flat: Int, resolution: Int
}

/// One struct input_event.
package struct EvdevEvent: Sendable, Equatable {
    /// Microseconds since the start of the recording.
    package var usec: Int64
    package var type: Int32
    package var code: Int32
    package var value: Int32

    package var time: Double { Double(usec) / 1_000_000 }
}

/// The events between two SYN_REPORTs, SYN_REPORT included (one `evdev:` entry).
package struct EvdevFrame: Sendable {
    package var line: Int
    package var events: [EvdevEvent]
    package var time: Double { events.last?.time ?? 0 }
}

/// A recording that cannot be replayed: the file, the line and the reason.
package struct RecordingError: Error, CustomStringConvertible, Equatable {
    package var path: String
    /// 1-based; nil when the problem is not at one place (an unreadable file).
    package var line: Int?
    package var message: String

    package var description: String {
        if let line { return "\(path):\(line): \(message)" }
        return "\(path): \(message)"
    }
}
