import ArgumentParser
import CDRM

/// A short drm_info: every card, its connectors with their state, and their modes. Under a
/// Wayland compositor: the compositor's outputs (xdg-output names, modes, scale).
struct OutputsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outputs",
        abstract: "List DRM devices, connectors and modes, or a Wayland compositor's outputs.")

    @Option(help: "auto (the compositor's outputs if WAYLAND_DISPLAY is set, else DRM), drm or wayland.")
    var backend: DisplayBackend = .auto

    func run() throws {
        if backend.resolved == .wayland { return try listWaylandOutputs() }
        let cards = DrmCard.discover()
        guard !cards.isEmpty else {
            Log.error("\(DisplayError.noDevice("load the KMS driver for the graphics hardware"))")
            throw ExitCode.failure
        }
        for path in cards {
            do throws(DisplayError) {
                let card = try DrmCard(path: path, master: false)
                print("\(path): driver \(card.driverName), \(card.enableAtomic() ? "atomic" : "legacy only")")
                for connector in try DrmResources(fd: card.fd).connectors {
                    print("  \(connector.name): \(connector.connected ? "connected" : "disconnected")")
                    for mode in connector.modes {
                        print("    \(mode.label)\(mode.preferred ? " preferred" : "")")
                    }
                }
            } catch {
                print("\(path): \(error)")
            }
        }
    }

    private func listWaylandOutputs() throws {
        do throws(DisplayError) {
            let connection = try WaylandConnection()
            print("wayland \(connection.socketName): \(connection.outputs.count) output(s)")
            for output in connection.outputs { output.lines.forEach { print("  " + $0) } }
        } catch {
            Log.error("\(error)")
            throw ExitCode.failure
        }
    }
}
