import CarouselConfig
import CarouselCore
import Glibc

/// Finds and opens the screen: the card that has the named connector (or any card), a real
/// KMS driver's card before a firmware framebuffer's (simpledrm), or /dev/fb0 when there is
/// no KMS device.
package enum DisplayOpener {
    /// `realOnly`: only a card driven by a real KMS driver will do (moving off a firmware
    /// framebuffer); `.noDevice` when there is none.
    package static func open(_ settings: OutputSettings, backend: DisplayBackend = .auto, realOnly: Bool = false,
                             devices: DeviceManager) throws(DisplayError) -> DisplayOutput {
        if backend == .fbdev {
            if realOnly { throw .noDevice("fbdev was asked for") }
            return try FbdevOutput(rotation: settings.rotation)
        }
        let ranked = DrmCard.discover().map { (path: $0, firmware: isFirmware($0)) }
        let cards = (ranked.filter { !$0.firmware } + ranked.filter { $0.firmware && !realOnly }).map(\.path)
        guard !cards.isEmpty else {
            if realOnly { throw .noDevice("no KMS driver's card") }
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
                let output = try DrmOutput(card: try devices.card(path: path), settings: settings)
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

    /// The connectors with a screen on the card a screen would be opened on (a real KMS
    /// driver's first), for "every connected screen" when no `[[output]]` table names one.
    /// Read without becoming master; empty when there is no card or nothing is connected yet.
    package static func connectedConnectors() -> [String] {
        let paths = DrmCard.discover()
        for path in paths.filter({ !isFirmware($0) }) + paths.filter(isFirmware) {
            guard let card = try? DrmCard(path: path, master: false),
                  let resources = try? DrmResources(fd: card.fd) else { continue }
            let names = resources.connectors.filter { $0.connected && !$0.modes.isEmpty }.map(\.name)
            if !names.isEmpty { return names }
        }
        return []
    }

    /// The mode the daemon would light the first connected screen with (its preferred mode), as
    /// `connectedConnectors` picks the card; nil when no screen is connected.
    package static func firstScreenMode() -> ModeInfo? {
        let paths = DrmCard.discover()
        for path in paths.filter({ !isFirmware($0) }) + paths.filter(isFirmware) {
            guard let card = try? DrmCard(path: path, master: false),
                  let resources = try? DrmResources(fd: card.fd),
                  let connector = resources.connectors.first(where: { $0.connected && !$0.modes.isEmpty }) else { continue }
            return try? OutputSelection.mode(nil, of: connector)
        }
        return nil
    }

    /// Whether the card at `path` is a firmware framebuffer (its driver read without
    /// becoming DRM master). A card that cannot be opened counts as real: opening it for the
    /// screen then reports why.
    private static func isFirmware(_ path: String) -> Bool {
        guard let card = try? DrmCard(path: path, master: false) else { return false }
        return DrmCard.firmwareDrivers.contains(card.driverName)
    }
}
