import CarouselConfig
import CarouselCore

extension Backends {
    /// Whether `[[output]]` tables name connectors that the machine's DRM cards must have:
    /// KMS's do (auto means KMS when no compositor runs `check`); a compositor names its own
    /// outputs, and fbdev has none.
    package static func tablesNameConnectors(_ kind: DisplayBackend) -> Bool { kind == .auto || kind == .drm }

    /// The connector names of every DRM card that can be read; nil when none can (a build
    /// machine, a container).
    package static func drmConnectorNames() -> [String]? {
        var names: [String]? = nil
        for path in DrmCard.discover() {
            do throws(DisplayError) {
                let card = try DrmCard(path: path, master: false)
                names = (names ?? []) + (try DrmResources(fd: card.fd).connectors.map(\.name))
            } catch {
                continue
            }
        }
        return names
    }

    /// `carouseld outputs`: what backend `kind` offers, line by line: the compositor's outputs,
    /// or every DRM card's connectors and modes, each connector followed by `use(connector)`.
    package static func describeOutputs(_ kind: DisplayBackend, use: ((String) -> String)?) throws(DisplayError) -> [String] {
        if kind.resolved == .wayland {
            let connection = try WaylandConnection()
            return ["wayland \(connection.socketName): \(connection.outputs.count) output(s)"]
                + connection.outputs.flatMap { $0.lines.map { "  " + $0 } }
        }
        let cards = DrmCard.discover()
        guard !cards.isEmpty else { throw .noDevice("load the KMS driver for the graphics hardware") }
        var lines: [String] = []
        for path in cards {
            do throws(DisplayError) {
                let card = try DrmCard(path: path, master: false)
                lines.append("\(path): driver \(card.driverName), \(card.enableAtomic() ? "atomic" : "legacy only")")
                for connector in try DrmResources(fd: card.fd).connectors {
                    lines.append("  \(connector.name): \(connector.connected ? "connected" : "disconnected")"
                                 + (use.map { "; " + $0(connector.name) } ?? ""))
                    lines += connector.modes.map { "    \($0.label)\($0.preferred ? " preferred" : "")" }
                }
            } catch {
                lines.append("\(path): \(error)")
            }
        }
        return lines
    }
}
