import ArgumentParser
import CarouselEngine
import Glibc

extension DisplayBackend: ExpressibleByArgument {}

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon: show the carousel on the display (the default).")

    @Option(name: .long, help: "Config directory (carouseld.conf, playlist.m3u, images/).")
    var config = ConfigLoader.defaultDirectory

    @Option(help: "Connector to use, e.g. HDMI-A-1 (overrides config `output`).")
    var output: String?

    @Option(help: "Mode WIDTHxHEIGHT[@HZ] (overrides config `mode`).")
    var mode: String?

    @Option(help: "Counter-clockwise rotation 0, 90, 180 or 270 (overrides config `rotation`).")
    var rotation: Int?

    @Flag(help: "Use legacy SetCrtc/PageFlip even where atomic modesetting works.")
    var forceLegacy = false

    @Option(help: "Display backend: auto (KMS, else fbdev), drm or fbdev.")
    var backend: DisplayBackend = .auto

    func validate() throws {
        if let rotation, ![0, 90, 180, 270].contains(rotation) {
            throw ValidationError("--rotation \(rotation) is not allowed; allowed 0, 90, 180, 270")
        }
        if let mode, DisplayMode(parsing: mode) == nil {
            throw ValidationError("--mode \(mode) is not a mode; allowed WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1920x1080@60")
        }
        if let output, output.isEmpty {
            throw ValidationError("--output is empty; allowed a connector name such as HDMI-A-1 (see carouseld outputs)")
        }
    }

    func run() throws {
        let options = DaemonOptions(configDirectory: config, output: output, mode: mode, rotation: rotation,
                                    forceLegacy: forceLegacy, backend: backend)
        let runner = try DaemonRunner(options)
        try runner.run()
        // The screen is back and everything is logged. Exit now rather than tear down: the
        // decode worker would first finish the picture it is on (seconds for a large photo on
        // a slow board), and SIGTERM must end the daemon promptly; the kernel frees the rest.
        withExtendedLifetime(runner) { Glibc.exit(0) }
    }
}
