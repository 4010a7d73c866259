import CInput

/// The evdev nodes of a seat, as libinput's udev backend picks them: input devices udev marked
/// as such (ID_INPUT=1) whose seat (ID_SEAT, else seat0) is the one asked for. libinput's path
/// backend is given these at start and the monitor's events after (`DeviceManager`).
enum SeatNodes {
    /// The nodes present now.
    static func nodes(seat: String) -> [String] {
        guard let udev = CHandle(udev_new(), release: { _ = udev_unref($0) }),
              let enumerate = CHandle(udev_enumerate_new(udev.pointer), release: { _ = udev_enumerate_unref($0) })
        else { return [] }
        udev_enumerate_add_match_subsystem(enumerate.pointer, "input")
        udev_enumerate_add_match_sysname(enumerate.pointer, "event*")
        guard udev_enumerate_scan_devices(enumerate.pointer) == 0 else { return [] }
        var nodes: [String] = []
        var entry = udev_enumerate_get_list_entry(enumerate.pointer)
        while let current = entry {
            entry = udev_list_entry_get_next(current)
            guard let syspath = udev_list_entry_get_name(current),
                  let device = CHandle(udev_device_new_from_syspath(udev.pointer, syspath), release: { _ = udev_device_unref($0) }),
                  UdevMonitor.seat(of: device.pointer) == seat,
                  let node = udev_device_get_devnode(device.pointer) else { continue }
            nodes.append(String(cString: node))
        }
        return nodes
    }

    /// Whether a monitor's event is about an evdev node of `seat`.
    static func concerns(_ event: UdevMonitor.Event, seat: String) -> Bool {
        event.subsystem == "input" && event.seat == seat && event.devnode?.hasPrefix("/dev/input/event") == true
    }
}
