import CarouselConfig
import CarouselEngine

/// Picks the connector and mode the config asks for. Pure functions over probed data, so
/// every rule and message is tested without hardware.
package enum OutputSelection {
    /// The connector named `name`, or else the first connected one. Nil means "nothing is
    /// connected yet": the daemon waits for a hotplug instead of exiting.
    package static func connector(named name: String?, in connectors: [ConnectorInfo]) throws(DisplayError) -> ConnectorInfo? {
        if let name {
            guard let found = connectors.first(where: { $0.name == name }) else {
                throw .connectorNotFound(name: name, available: connectors.map(\.name))
            }
            return found.connected ? found : nil
        }
        return connectors.first { $0.connected && !$0.modes.isEmpty }
    }

    /// The mode written as `WIDTHxHEIGHT[@HZ]`, or else the preferred one (else the first).
    /// Among several matches the preferred one wins, then the highest refresh.
    package static func mode(_ request: String?, of connector: ConnectorInfo) throws(DisplayError) -> ModeInfo {
        let available = connector.modes.map { $0.label + ($0.preferred ? " (preferred)" : "") }
        guard let request else {
            guard let mode = connector.modes.first(where: \.preferred) ?? connector.modes.first else {
                throw .modeNotOffered(mode: "any", connector: connector.name, available: [])
            }
            return mode
        }
        guard let wanted = DisplayMode(parsing: request) else {
            throw .modeNotOffered(mode: request, connector: connector.name, available: available)
        }
        let matches = connector.modes.filter {
            $0.width == wanted.width && $0.height == wanted.height
                && (wanted.refresh == nil || $0.refresh == wanted.refresh)
        }
        guard let best = matches.max(by: { ($0.preferred ? 1 : 0, $0.refresh) < ($1.preferred ? 1 : 0, $1.refresh) }) else {
            throw .modeNotOffered(mode: request, connector: connector.name, available: available)
        }
        return best
    }
}
