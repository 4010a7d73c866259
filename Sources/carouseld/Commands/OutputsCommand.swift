import ArgumentParser
import CDRM

/// A short drm_info: every card, its connectors with their state, and their modes.
struct OutputsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outputs",
        abstract: "List DRM devices, connectors and modes.")

    func run() throws {
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
}
