import CInput

/// udev's events for some subsystems, as the daemon's loop reads them: a screen plugged or
/// switched on (drm "change", HOTPLUG=1), a GPU driver that loads late or a card that goes away
/// (drm and graphics "add"/"remove"). Events arrive once udev has processed them, so a new
/// node already has its group and mode.
final class UdevMonitor {
    struct Event: Equatable {
        var action: String
        var devnode: String?
        /// The kernel's HOTPLUG=1: connectors of a card changed.
        var hotplug = false
    }

    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    var fd: Int32 { udev_monitor_get_fd(monitor) }

    init?(subsystems: [String]) {
        guard let udev = udev_new() else { return nil }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else { udev_unref(udev); return nil }
        for subsystem in subsystems { udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil) }
        guard udev_monitor_enable_receiving(monitor) == 0 else {
            udev_monitor_unref(monitor); udev_unref(udev); return nil
        }
        self.udev = udev; self.monitor = monitor
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// The pending events.
    func drain() -> [Event] {
        var events: [Event] = []
        while let device = udev_monitor_receive_device(monitor) {
            events.append(Event(action: udev_device_get_action(device).map { String(cString: $0) } ?? "",
                                devnode: udev_device_get_devnode(device).map { String(cString: $0) },
                                hotplug: udev_device_get_property_value(device, "HOTPLUG").map { String(cString: $0) } == "1"))
            udev_device_unref(device)
        }
        return events
    }
}
