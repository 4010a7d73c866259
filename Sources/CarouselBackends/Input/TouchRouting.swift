import CarouselEngine
import CarouselPixels

/// Which screen a touch device belongs to. A touchscreen reports positions on its own panel,
/// so with several screens each must be told which one it sits on:
/// 1. by config: the screen whose `touch` names the device (its name, as `libinput list-devices`
///    shows it, or its udev `ID_PATH`);
/// 2. by udev: the device's `WL_OUTPUT` property names the connector (the convention wlroots
///    and weston follow; set by a udev rule or hwdb entry);
/// 3. otherwise the first screen.
package struct TouchRouting: Sendable, Equatable {
    /// One per screen, in order: its connector and the `touch` it was given (if any).
    package var screens: [(connector: String, touch: String?)]

    package init(screens: [(connector: String, touch: String?)]) { self.screens = screens }

    /// What udev and libinput say about a device.
    package struct Device: Sendable, Equatable {
        package var name: String
        package var idPath: String?
        package var wlOutput: String?
    }

    package enum Reason: Equatable { case config, wlOutput, firstScreen }

    package func screen(for device: Device) -> (index: Int, reason: Reason) {
        if let i = screens.firstIndex(where: { $0.touch != nil && ($0.touch == device.name || $0.touch == device.idPath) }) {
            return (i, .config)
        }
        if let output = device.wlOutput, let i = screens.firstIndex(where: { $0.connector == output }) {
            return (i, .wlOutput)
        }
        return (0, .firstScreen)
    }

    package static func == (a: TouchRouting, b: TouchRouting) -> Bool {
        a.screens.map(\.connector) == b.screens.map(\.connector) && a.screens.map(\.touch) == b.screens.map(\.touch)
    }
}

/// An input action and the carousel (its index in the plan) it is for.
package typealias RoutedAction = (carousel: Int, action: InputAction)

/// Where the touches of one screen's panel end up: which carousel (`carousel`: one per
/// independent screen, one for all mirrored or spanned ones) and at which point of it.
package struct TouchTarget: Sendable, Equatable {
    package var carousel: Int
    /// The screen's picture size (after rotation) and rotation: the panel mapping.
    package var screen: Size
    package var rotation: Int
    /// Where this screen shows its carousel (`ScreenArrangement`).
    package var view: ViewTransform = .identity

    package init(carousel: Int, screen: Size, rotation: Int, view: ViewTransform = .identity) {
        self.carousel = carousel; self.screen = screen; self.rotation = rotation; self.view = view
    }

    /// This screen's action for its carousel, a touch moved to the point of the carousel under
    /// it: the one routing of both input sources (libinput's devices and a Wayland seat).
    package func route(_ action: InputAction) -> RoutedAction {
        guard case .touch(let frame) = action else { return (carousel, action) }
        return (carousel, .touch(toEngine(frame)))
    }

    /// A point on the screen → the point of the carousel under it.
    package func toEngine(_ frame: TouchFrame) -> TouchFrame {
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
