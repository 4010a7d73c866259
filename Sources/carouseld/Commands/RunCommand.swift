import ArgumentParser

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon: show the carousel on the display (the default).")

    func run() throws {
        throw ValidationError("'carouseld run' is not available in this build yet")
    }
}
