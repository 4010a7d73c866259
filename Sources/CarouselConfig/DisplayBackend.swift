/// Which kind of display to drive: a Wayland compositor when one is named in the environment,
/// else KMS when a card exists, else fbdev (`auto`); or one of them forced by config or command line.
package enum DisplayBackend: String, CaseIterable, Sendable {
    case auto, drm, fbdev, wayland
}
