import ArgumentParser

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a libinput recording through the engine.")

    func run() throws {
        throw ValidationError("'carouseld replay' is not available in this build yet")
    }
}
