import CInput

/// udev "add" and "remove" events of display devices (subsystems drm and graphics): a GPU
/// driver that loads after the daemon started, a firmware framebuffer that goes away when the
/// real driver takes over, a card that is unplugged.
final class DisplayDeviceMonitor {
    struct Event: Equatable {
        var action: String
        var devnode: String?
    }

    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    var fd: Int32 { udev_monitor_get_fd(monitor) }

    init?() {
        guard let udev = udev_new() else { return nil }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else { udev_unref(udev); return nil }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "drm", nil)
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "graphics", nil)
        guard udev_monitor_enable_receiving(monitor) == 0 else {
            udev_monitor_unref(monitor); udev_unref(udev); return nil
        }
        self.udev = udev; self.monitor = monitor
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// The pending add and remove events (change events are the output's own business).
    func drain() -> [Event] {
        var events: [Event] = []
        while let device = udev_monitor_receive_device(monitor) {
            let action = udev_device_get_action(device).map { String(cString: $0) } ?? ""
            if action == "add" || action == "remove" {
                events.append(Event(action: action, devnode: udev_device_get_devnode(device).map { String(cString: $0) }))
            }
            udev_device_unref(device)
        }
        return events
    }
}
