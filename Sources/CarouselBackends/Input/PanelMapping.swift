import CarouselEngine

/// Maps touch positions from the physical panel to the logical screen the carousel is laid out on.
///
/// `rotation` follows DRM's `DRM_MODE_ROTATE_<n>` (and Wayland's output transform): the picture is
/// turned `n` degrees counter-clockwise on the panel. For 90 and 270 the panel is the logical screen
/// with width and height swapped. Touchscreens report panel coordinates, so without this mapping a
/// swipe to the left on a rotated panel would move the strip up or down.
package struct PanelMapping: Sendable, Equatable {
    /// The logical screen (the engine's viewport).
    package let screen: Size
    /// 0, 90, 180 or 270.
    package let rotation: Int

    package init(screen: Size, rotation: Int) {
        self.screen = screen
        self.rotation = ((rotation % 360) + 360) % 360
    }

    /// The panel's own size: the size libinput's transformed coordinates are asked for.
    package var panel: Size {
        rotation == 90 || rotation == 270 ? Size(width: screen.height, height: screen.width) : screen
    }

    /// A point in panel pixels → the same point in logical screen pixels.
    package func toScreen(panelX px: Double, panelY py: Double) -> (x: Double, y: Double) {
        let p = panel
        switch rotation {
        case 90: return (p.height - py, px)
        case 180: return (p.width - px, p.height - py)
        case 270: return (py, p.width - px)
        default: return (px, py)
        }
    }

    /// libinput's transformed coordinate (`libinput_event_touch_get_x_transformed`):
    /// an axis value scaled to `size` pixels as `(v − min) × size / (max − min + 1)`.
    package static func transformed(_ value: Int, min: Int, max: Int, size: Double) -> Double {
        Double(value - min) * size / Double(max - min + 1)
    }
}
