import ArgumentParser
import CarouselConfig
import CarouselCore
import CarouselPixels
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

    @Option(help: "Display backend: auto (Wayland if WAYLAND_DISPLAY is set, else KMS, else fbdev), drm, fbdev or wayland (overrides config `backend`).")
    var backend: DisplayBackend?

    @Option(help: "Card cache directory (default: $CACHE_DIRECTORY from systemd's CacheDirectory=; without either, no card cache).")
    var cacheDir: String?

    @Option(help: "Control socket path (default: $RUNTIME_DIRECTORY/control from systemd's RuntimeDirectory=, else /run/carouseld/control when that directory is writable; state.json goes beside it).")
    var control: String?

    var options: DaemonOptions {
        DaemonOptions(configDirectory: config, output: output, mode: mode, rotation: rotation,
                      forceLegacy: forceLegacy, backend: backend, cacheDirectory: cacheDir, controlPath: control)
    }

    /// The overrides obey the same rules as the config keys they override.
    func validate() throws {
        if let issue = options.overrideIssues.first {
            throw ValidationError("--\(issue.key.replacing("_", with: "-")) \(issue.message)")
        }
    }

    func run() throws { try Self.run(options) }

    static func run(_ options: DaemonOptions) throws {
        let runner = try DaemonRunner(options)
        try runner.run()
        // The screen is back and everything is logged. Exit now rather than tear down: the
        // decode worker would first finish the picture it is on (seconds for a large photo on
        // a slow board), and SIGTERM must end the daemon promptly; the kernel frees the rest.
        withExtendedLifetime(runner) { Glibc.exit(0) }
    }
}
