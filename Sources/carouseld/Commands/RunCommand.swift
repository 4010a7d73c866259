import ArgumentParser
import CarouselEngine
import Foundation
import Glibc

extension DisplayBackend: ExpressibleByArgument {}

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon: show the carousel on the display (the default).")

    @Option(name: .long, help: "Config directory (carouseld.conf and images/).")
    var config = "/etc/carouseld"

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
            throw ValidationError("--mode \(mode) is not a mode; allowed WIDTHxHEIGHT or WIDTHxHEIGHT@HZ")
        }
    }

    func run() throws {
        let settings = loadSettings()
        let items = listImages(in: settings.media)
        Log.info("config \(config): \(items.count) pictures in \(settings.media.path)")

        let loop = try EventLoop()
        let signals = try SignalSource(signals: [SIGTERM, SIGINT, SIGHUP])
        let display: DisplayOutput
        do {
            display = try DisplayOpener.open(OutputSettings(config: settings.config), backend: backend)
        } catch {
            Log.error("\(error)")
            throw ExitCode.failure
        }
        let engine = CarouselEngine(config: settings.config, itemCount: items.count,
                                    viewport: display.size ?? Size(width: 1920, height: 1080),
                                    now: MonotonicClock.now())
        let daemon = try Daemon(engine: engine, output: display,
                                renderer: PlaceholderRenderer(config: settings.config), loop: loop)
        daemon.onFirstFrame = { time in
            let exec = ExecClock.sinceExec(atMonotonic: time).map { String(format: "%.0f ms", $0 * 1000) } ?? "?"
            Log.info("first frame on screen \(exec) after exec")
        }
        daemon.onEvent = { event in
            if case .settled(_, let index) = event, items.indices.contains(index) {
                Log.info("showing \(index + 1)/\(items.count) \(items[index].lastPathComponent)")
            }
        }
        try loop.add(fd: signals.fd) {
            for signal in signals.drain() {
                if signal == SIGHUP {
                    Log.notice("SIGHUP: reload is not available in this build")
                    continue
                }
                Log.info("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): giving the screen back and exiting")
                display.restore()
                loop.stop()
            }
        }
        daemon.start()
        try loop.run()
        Log.info("exited after \(daemon.framesPresented) frames and \(loop.wakeups) wakeups")
    }

    /// The config with command-line overrides. Until the config loader is on main,
    /// carouseld.conf is not read: defaults are used.
    private func loadSettings() -> (config: CarouselConfig, media: URL) {
        var settings = CarouselConfig()
        if let output { settings.output = output }
        if let mode { settings.mode = mode }
        if let rotation { settings.rotation = rotation }
        if forceLegacy { settings.forceLegacy = true }
        let dir = URL(fileURLWithPath: config, isDirectory: true)
        let media = settings.media.hasPrefix("/") ? URL(fileURLWithPath: settings.media)
            : dir.appendingPathComponent(settings.media)
        return (settings, media)
    }

    /// Pictures in the media directory, by name. A stand-in for the pixels media listing.
    private func listImages(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { ["png", "jpg", "jpeg", "webp"].contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted().map { directory.appendingPathComponent($0) }
    }
}
