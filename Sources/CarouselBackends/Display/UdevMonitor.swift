import CarouselCore
import CInput

/// udev's events for some subsystems, as the daemon's loop reads them: a screen plugged or
/// switched on (drm "change", HOTPLUG=1), a GPU driver that loads late or a card that goes away
/// (drm and graphics "add"/"remove"), an input device plugged or unplugged (input). Events arrive
/// once udev has processed them, so a new node already has its group and mode.
package final class UdevMonitor {
    package struct Event: Equatable {
        package var action: String
        package var devnode: String?
        /// "drm", "graphics" (fbdev) or "input".
        package var subsystem = "drm"
        /// The kernel's HOTPLUG=1: connectors of a card changed.
        package var hotplug = false
        /// An input device udev marked as one (ID_INPUT=1): its seat (ID_SEAT, else seat0).
        package var seat: String?
    }

    /// The udev context, kept for as long as the monitor made from it.
    private let udev: CHandle<OpaquePointer>
    private let monitor: CHandle<OpaquePointer>
    package var fd: Int32 { udev_monitor_get_fd(monitor.pointer) }

    package init?(subsystems: [String]) {
        guard let udev = CHandle(udev_new(), release: { _ = udev_unref($0) }),
              let monitor = CHandle(udev_monitor_new_from_netlink(udev.pointer, "udev"), release: { _ = udev_monitor_unref($0) })
        else { return nil }
        for subsystem in subsystems { udev_monitor_filter_add_match_subsystem_devtype(monitor.pointer, subsystem, nil) }
        guard udev_monitor_enable_receiving(monitor.pointer) == 0 else { return nil }
        self.udev = udev
        self.monitor = monitor
    }

    /// The pending events.
    package func drain() -> [Event] {
        var events: [Event] = []
        while let device = CHandle(udev_monitor_receive_device(monitor.pointer), release: { _ = udev_device_unref($0) }) {
            events.append(Event(action: udev_device_get_action(device.pointer).map { String(cString: $0) } ?? "",
                                devnode: udev_device_get_devnode(device.pointer).map { String(cString: $0) },
                                subsystem: udev_device_get_subsystem(device.pointer).map { String(cString: $0) } ?? "",
                                hotplug: Self.property(device.pointer, "HOTPLUG") == "1",
                                seat: Self.seat(of: device.pointer)))
        }
        return events
    }

    static func property(_ device: OpaquePointer, _ name: String) -> String? {
        udev_device_get_property_value(device, name).map { String(cString: $0) }
    }

    /// The seat of an input device as libinput's udev backend reads it; nil: not an input device.
    static func seat(of device: OpaquePointer) -> String? {
        guard property(device, "ID_INPUT") == "1" else { return nil }
        return property(device, "ID_SEAT") ?? "seat0"
    }
}
