import Glibc

/// Which kind of display to drive: KMS when a card exists, else fbdev (`auto`), or one of
/// them forced from the command line.
enum DisplayBackend: String, CaseIterable {
    case auto, drm, fbdev
}

/// Finds and opens the screen: the card that has the named connector (or any card), or
/// /dev/fb0 when there is no KMS device.
enum DisplayOpener {
    static func open(_ settings: OutputSettings, backend: DisplayBackend = .auto) throws(DisplayError) -> DisplayOutput {
        if backend == .fbdev { return try FbdevOutput(rotation: settings.rotation) }
        let cards = DrmCard.discover()
        guard !cards.isEmpty else {
            if backend == .auto, access("/dev/fb0", F_OK) == 0 {
                Log.notice("no DRM device; falling back to fbdev /dev/fb0")
                return try FbdevOutput(rotation: settings.rotation)
            }
            throw .noDevice("load the KMS driver for the graphics hardware, or connect a screen"
                            + (backend == .auto ? " (no /dev/fb0 either)" : ""))
        }
        var firstError: DisplayError?
        var allConnectors: [String] = []
        for path in cards {
            do throws(DisplayError) {
                let output = try DrmOutput(card: try DrmCard(path: path), settings: settings)
                // Without a named connector, prefer a card with a screen; the last one waits.
                if settings.connector != nil || output.size != nil || path == cards.last { return output }
            } catch {
                if case .connectorNotFound(_, let names) = error { allConnectors += names }
                firstError = firstError ?? error
            }
        }
        if case .connectorNotFound(let name, _)? = firstError {
            throw .connectorNotFound(name: name, available: allConnectors)
        }
        throw firstError ?? .noDevice("no usable card among \(cards.joined(separator: ", "))")
    }
}
