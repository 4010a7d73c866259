import ArgumentParser

/// carouseld: an image carousel drawn straight to DRM/KMS, driven by touch, run by systemd.
@main
struct Carouseld: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "carouseld",
        abstract: "Image carousel daemon for DRM/KMS screens with touch input.",
        version: version,
        subcommands: [RunCommand.self, RenderCommand.self, ReplayCommand.self, BenchCommand.self,
                      OutputsCommand.self, CheckCommand.self, CtlCommand.self, PlaysCommand.self, DemoCommand.self,
                      SplashCommand.self],
        defaultSubcommand: RunCommand.self)

    /// The daemon's start (`run` with plain options) skips ArgumentParser: see `DaemonStart`.
    static func main() {
        guard let options = DaemonStart.options(CommandLine.arguments.dropFirst()) else { return main(nil) }
        do {
            try RunCommand.run(options)
        } catch {
            exit(withError: error)
        }
    }
}
