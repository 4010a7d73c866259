import ArgumentParser

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render frames of the carousel to PNG files, with no display.")

    func run() throws {
        throw ValidationError("'carouseld render' is not available in this build yet")
    }
}
