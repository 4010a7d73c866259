import ArgumentParser

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a config directory, like nginx -t.")

    func run() throws {
        throw ValidationError("'carouseld check' is not available in this build yet")
    }
}
