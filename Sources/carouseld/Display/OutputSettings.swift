import CarouselConfig
/// What the user asked of the display (config keys output, mode, rotation, force_legacy,
/// possibly overridden on the command line).
struct OutputSettings: Equatable, Sendable {
    var connector: String? = nil
    var mode: String? = nil
    /// Counter-clockwise degrees: 0, 90, 180 or 270.
    var rotation: Int = 0
    var forceLegacy: Bool = false
    /// Scanout buffers per screen: two, or three to draw ahead while a flip is pending.
    var bufferCount: Int = 2

    init(connector: String? = nil, mode: String? = nil, rotation: Int = 0, forceLegacy: Bool = false) {
        self.connector = connector; self.mode = mode; self.rotation = rotation; self.forceLegacy = forceLegacy
    }

    init(_ shell: ShellSettings) {
        self.init(connector: shell.output, mode: shell.mode, rotation: shell.rotation,
                  forceLegacy: shell.forceLegacy)
    }
}
