import ArgumentParser

struct OutputsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outputs",
        abstract: "List DRM devices, connectors and modes.")

    func run() throws {
        throw ValidationError("'carouseld outputs' is not available in this build yet")
    }
}
