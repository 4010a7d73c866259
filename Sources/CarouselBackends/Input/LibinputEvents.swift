import CarouselCore
import CarouselEngine
import CInput
import Glibc

/// Reads one libinput event into carouseld's `DeviceEvent` vocabulary, switching over every
/// event type the way `libinput debug-events` does. Types carouseld has no use for (tablets,
/// gestures, scrolling, switches) are named and dropped.
package enum LibinputEvents {
    /// `panel` is the size touch and absolute-pointer positions are transformed to.
    package static func read(_ event: OpaquePointer, panel: Size) -> DeviceEvent? {
        let device = libinput_event_get_device(event)
        let id = Int(bitPattern: device)
        let type = libinput_event_get_type(event)
        switch type {
        case LIBINPUT_EVENT_NONE:
            return nil
        case LIBINPUT_EVENT_DEVICE_ADDED:
            return .added(device: id, name: deviceName(device), capabilities: capabilities(device))
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            return .removed(device: id, time: monotonicNow())
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            let k = libinput_event_get_keyboard_event(event)
            return .key(device: id, code: Int(libinput_event_keyboard_get_key(k)),
                        pressed: libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED,
                        time: seconds(libinput_event_keyboard_get_time_usec(k)))
        case LIBINPUT_EVENT_POINTER_MOTION:
            let p = libinput_event_get_pointer_event(event)
            return .pointerMotion(device: id, dx: libinput_event_pointer_get_dx(p), dy: libinput_event_pointer_get_dy(p),
                                  time: seconds(libinput_event_pointer_get_time_usec(p)))
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            let p = libinput_event_get_pointer_event(event)
            return .pointerMotionAbsolute(
                device: id,
                x: libinput_event_pointer_get_absolute_x_transformed(p, UInt32(panel.width)),
                y: libinput_event_pointer_get_absolute_y_transformed(p, UInt32(panel.height)),
                time: seconds(libinput_event_pointer_get_time_usec(p)))
        case LIBINPUT_EVENT_POINTER_BUTTON:
            let p = libinput_event_get_pointer_event(event)
            return .pointerButton(device: id, button: Int(libinput_event_pointer_get_button(p)),
                                  pressed: libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED,
                                  time: seconds(libinput_event_pointer_get_time_usec(p)))
        case LIBINPUT_EVENT_POINTER_AXIS, LIBINPUT_EVENT_POINTER_SCROLL_WHEEL,
             LIBINPUT_EVENT_POINTER_SCROLL_FINGER, LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
            return nil  // scrolling does not page: a wheel click is too easy to trigger by accident
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            let t = libinput_event_get_touch_event(event)
            let slot = Int(libinput_event_touch_get_seat_slot(t))
            let x = libinput_event_touch_get_x_transformed(t, UInt32(panel.width))
            let y = libinput_event_touch_get_y_transformed(t, UInt32(panel.height))
            let time = seconds(libinput_event_touch_get_time_usec(t))
            return type == LIBINPUT_EVENT_TOUCH_DOWN
                ? .touchDown(device: id, slot: slot, x: x, y: y, time: time)
                : .touchMotion(device: id, slot: slot, x: x, y: y, time: time)
        case LIBINPUT_EVENT_TOUCH_UP, LIBINPUT_EVENT_TOUCH_CANCEL:
            let t = libinput_event_get_touch_event(event)
            let slot = Int(libinput_event_touch_get_seat_slot(t))
            let time = seconds(libinput_event_touch_get_time_usec(t))
            return type == LIBINPUT_EVENT_TOUCH_UP
                ? .touchUp(device: id, slot: slot, time: time)
                : .touchCancel(device: id, slot: slot, time: time)
        case LIBINPUT_EVENT_TOUCH_FRAME:
            let t = libinput_event_get_touch_event(event)
            return .touchFrame(device: id, time: seconds(libinput_event_touch_get_time_usec(t)))
        case LIBINPUT_EVENT_TABLET_TOOL_AXIS, LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY,
             LIBINPUT_EVENT_TABLET_TOOL_TIP, LIBINPUT_EVENT_TABLET_TOOL_BUTTON,
             LIBINPUT_EVENT_TABLET_PAD_BUTTON, LIBINPUT_EVENT_TABLET_PAD_RING,
             LIBINPUT_EVENT_TABLET_PAD_STRIP, LIBINPUT_EVENT_TABLET_PAD_KEY:
            return nil  // tablets and pads: not used
        case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN, LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE,
             LIBINPUT_EVENT_GESTURE_SWIPE_END, LIBINPUT_EVENT_GESTURE_PINCH_BEGIN,
             LIBINPUT_EVENT_GESTURE_PINCH_UPDATE, LIBINPUT_EVENT_GESTURE_PINCH_END,
             LIBINPUT_EVENT_GESTURE_HOLD_BEGIN, LIBINPUT_EVENT_GESTURE_HOLD_END:
            return nil  // touchpad gestures: not used
        case LIBINPUT_EVENT_SWITCH_TOGGLE:
            return nil  // lid and tablet-mode switches: not used
        default:
            Log.debug("input: libinput event type \(type.rawValue) is newer than this build; ignored")
            return nil
        }
    }

    private static func deviceName(_ device: OpaquePointer?) -> String {
        guard let device, let name = libinput_device_get_name(device) else { return "unnamed device" }
        let node = libinput_device_get_sysname(device).map { String(cString: $0) }
        return String(cString: name) + (node.map { " (\($0))" } ?? "")
    }

    private static func capabilities(_ device: OpaquePointer?) -> DeviceCapabilities {
        guard let device else { return [] }
        var caps: DeviceCapabilities = []
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0 { caps.insert(.touch) }
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_KEYBOARD) != 0 { caps.insert(.keyboard) }
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_POINTER) != 0 { caps.insert(.pointer) }
        return caps
    }

    private static func seconds(_ usec: UInt64) -> Double { Double(usec) / 1_000_000 }

    /// CLOCK_MONOTONIC, the clock libinput stamps its events with.
    package static func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
