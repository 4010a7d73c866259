/// What an input device did, in libinput's terms, before carouseld interprets it.
///
/// Two producers share this vocabulary: the live libinput context (`InputSource`) and the
/// decoder of `libinput record` files (`EvdevDecoder`). Both feed the same `InputTranslator`,
/// so `carouseld replay` runs the daemon's input path from here on.
/// Times are seconds on the kernel's monotonic clock; positions are panel pixels.
package enum DeviceEvent: Sendable, Equatable {
    case added(device: Int, name: String, capabilities: DeviceCapabilities)
    case removed(device: Int, time: Double)
    /// `slot` is the seat slot: unique among all touch devices of the seat.
    case touchDown(device: Int, slot: Int, x: Double, y: Double, time: Double)
    case touchMotion(device: Int, slot: Int, x: Double, y: Double, time: Double)
    case touchUp(device: Int, slot: Int, time: Double)
    case touchCancel(device: Int, slot: Int, time: Double)
    /// Every touch of the device is cancelled (`wl_touch.cancel`, which names none; libinput
    /// cancels slot by slot): the translator's record of contacts knows which are down.
    case touchesCancelled(device: Int, time: Double)
    /// Ends a group of touch changes that happened at once (libinput's TOUCH_FRAME).
    case touchFrame(device: Int, time: Double)
    /// A key press or release (libinput sends no auto-repeat); `code` is the evdev key code.
    case key(device: Int, code: Int, pressed: Bool, time: Double)
    /// Relative pointer motion in screen pixels.
    case pointerMotion(device: Int, dx: Double, dy: Double, time: Double)
    /// Absolute pointer position in panel pixels.
    case pointerMotionAbsolute(device: Int, x: Double, y: Double, time: Double)
    case pointerButton(device: Int, button: Int, pressed: Bool, time: Double)
}

/// The kinds of input a device offers that carouseld uses.
package struct DeviceCapabilities: OptionSet, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    package static let touch = DeviceCapabilities(rawValue: 1)
    package static let keyboard = DeviceCapabilities(rawValue: 2)
    package static let pointer = DeviceCapabilities(rawValue: 4)

    package var description: String {
        let names = [(Self.touch, "touch"), (.keyboard, "keyboard"), (.pointer, "pointer")]
            .filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "no used capability" : names.joined(separator: ", ")
    }
}
