import CInput

/// udev "drm" events (a screen plugged, unplugged or switched on): the output re-probes its
/// connectors when one arrives.
final class DrmHotplugMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    var fd: Int32 { udev_monitor_get_fd(monitor) }

    init?() {
        guard let udev = udev_new() else { return nil }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else { udev_unref(udev); return nil }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "drm", nil)
        guard udev_monitor_enable_receiving(monitor) == 0 else {
            udev_monitor_unref(monitor); udev_unref(udev); return nil
        }
        self.udev = udev; self.monitor = monitor
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Reads the pending events; true if any was a change of a card (HOTPLUG=1 or "change"),
    /// or a connector added (a driver that just loaded registers its connectors after the card).
    func drain() -> Bool {
        var changed = false
        while let device = udev_monitor_receive_device(monitor) {
            let action = udev_device_get_action(device).map { String(cString: $0) }
            let hotplug = udev_device_get_property_value(device, "HOTPLUG").map { String(cString: $0) }
            if hotplug == "1" || action == "change" || action == "add" { changed = true }
            udev_device_unref(device)
        }
        return changed
    }
}
