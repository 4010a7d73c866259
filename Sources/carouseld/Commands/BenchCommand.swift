import ArgumentParser

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark composing and decoding.")

    func run() throws {
        throw ValidationError("'carouseld bench' is not available in this build yet")
    }
}
