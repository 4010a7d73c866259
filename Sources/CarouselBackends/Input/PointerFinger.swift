import CarouselCore
import CarouselEngine
import CLinux

/// A pointer dragging with its left button behaves like one finger.
///
/// The pointer has no position of its own on a screen without a cursor, so one is kept here:
/// it starts in the centre, follows relative motion (clamped to the screen) and jumps to
/// absolute positions (tablets, VM pointers).
package struct PointerFinger: Sendable {
    /// The pointer's touch slot: apart from libinput's seat slots (0, 1, …) so that a mouse
    /// and a finger at the same time stay two fingers and the engine keeps following the first.
    package static let slot = 1000

    package let mapping: PanelMapping
    package private(set) var x: Double
    package private(set) var y: Double
    /// The device whose left button is down, if any.
    package private(set) var heldBy: Int?

    package init(mapping: PanelMapping) {
        self.mapping = mapping
        x = mapping.screen.width / 2
        y = mapping.screen.height / 2
    }

    package mutating func motion(dx: Double, dy: Double, time: Double) -> TouchFrame? {
        moveTo(x + dx, y + dy, time: time)
    }

    package mutating func absolute(panelX: Double, panelY: Double, time: Double) -> TouchFrame? {
        let p = mapping.toScreen(panelX: panelX, panelY: panelY)
        return moveTo(p.x, p.y, time: time)
    }

    /// Left button down starts the finger, up lifts it; other buttons are not fingers.
    package mutating func button(device: Int, button: Int, pressed: Bool, time: Double) -> TouchFrame? {
        guard button == Int(BTN_LEFT) else { return nil }
        if pressed, heldBy == nil {
            heldBy = device
            return frame(.down, time)
        }
        if !pressed, heldBy == device {
            heldBy = nil
            return frame(.up, time)
        }
        return nil
    }

    /// Forgets a drag held by a device that went away; true when there was one.
    package mutating func deviceRemoved(_ device: Int) -> Bool {
        guard heldBy == device else { return false }
        heldBy = nil
        return true
    }

    private mutating func moveTo(_ nx: Double, _ ny: Double, time: Double) -> TouchFrame? {
        let screen = mapping.screen
        x = min(max(nx, 0), max(screen.width - 1, 0))
        y = min(max(ny, 0), max(screen.height - 1, 0))
        return heldBy == nil ? nil : frame(.move, time)
    }

    private func frame(_ phase: TouchPhase, _ time: Double) -> TouchFrame {
        // Its own count (1 while held); the translator, which keeps the record of every contact,
        // stamps the whole count over it (`withTouches`).
        TouchFrame(time: time, samples: [TouchSample(slot: Self.slot, phase: phase, x: x, y: y)],
                   contactsDown: heldBy == nil ? 0 : 1)
    }
}
