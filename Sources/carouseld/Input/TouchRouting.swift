import CarouselEngine
import CarouselPixels

/// Which screen a touch device belongs to. A touchscreen reports positions on its own panel,
/// so with several screens each must be told which one it sits on:
/// 1. by config: the screen whose `touch` names the device (its name, as `libinput list-devices`
///    shows it, or its udev `ID_PATH`);
/// 2. by udev: the device's `WL_OUTPUT` property names the connector (the convention wlroots
///    and weston follow; set by a udev rule or hwdb entry);
/// 3. otherwise the first screen.
struct TouchRouting: Sendable, Equatable {
    /// One per screen, in order: its connector and the `touch` it was given (if any).
    var screens: [(connector: String, touch: String?)]

    /// What udev and libinput say about a device.
    struct Device: Sendable, Equatable {
        var name: String
        var idPath: String?
        var wlOutput: String?
    }

    enum Reason: Equatable { case config, wlOutput, firstScreen }

    func screen(for device: Device) -> (index: Int, reason: Reason) {
        if let i = screens.firstIndex(where: { $0.touch != nil && ($0.touch == device.name || $0.touch == device.idPath) }) {
            return (i, .config)
        }
        if let output = device.wlOutput, let i = screens.firstIndex(where: { $0.connector == output }) {
            return (i, .wlOutput)
        }
        return (0, .firstScreen)
    }

    static func == (a: TouchRouting, b: TouchRouting) -> Bool {
        a.screens.map(\.connector) == b.screens.map(\.connector) && a.screens.map(\.touch) == b.screens.map(\.touch)
    }
}

/// Where the touches of one screen's panel end up: which carousel (`group`: one per
/// independent screen, one for all mirrored or spanned ones) and at which point of it.
struct TouchTarget: Sendable, Equatable {
    var group: Int
    /// The screen's picture size (after rotation) and rotation: the panel mapping.
    var screen: Size
    var rotation: Int
    /// Where this screen shows its carousel (`ScreenArrangement`).
    var view: ViewTransform = .identity

    /// A point on the screen → the point of the carousel under it.
    func toEngine(_ frame: TouchFrame) -> TouchFrame {
        guard view != .identity else { return frame }
        var mapped = frame
        mapped.samples = frame.samples.map { sample in
            var s = sample
            (s.x, s.y) = view.toEngine(x: sample.x, y: sample.y)
            return s
        }
        return mapped
    }
}
