import CarouselConfig
/// What the user asked of the display (config keys output, mode, rotation, force_legacy,
/// planes, possibly overridden on the command line).
package struct OutputSettings: Equatable, Sendable {
    package var connector: String? = nil
    package var mode: String? = nil
    /// Counter-clockwise degrees: 0, 90, 180 or 270.
    package var rotation: Int = 0
    package var forceLegacy: Bool = false
    /// Cards may go on overlay planes (`planes = "auto"`).
    package var planes: Bool = true
    /// Scanout buffers per screen: two, or three to draw ahead while a flip is pending.
    package var bufferCount: Int = 2

    package init(connector: String? = nil, mode: String? = nil, rotation: Int = 0, kms: KMSSettings = KMSSettings()) {
        self.connector = connector; self.mode = mode; self.rotation = rotation
        forceLegacy = kms.forceLegacy
        planes = kms.planes == .auto
    }

    package init(_ shell: ShellSettings) {
        self.init(connector: shell.output, mode: shell.mode, rotation: shell.rotation, kms: shell.kms)
    }
}
