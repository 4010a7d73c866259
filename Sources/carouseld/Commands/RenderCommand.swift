import ArgumentParser
import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels
import FoundationEssentials

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render frames of the carousel to PNG files, with no display.",
        discussion: """
            Writes one PNG per time in --at, named frame-SSSS.mmm.png (e.g. frame-0001.500.png for \
            1.5 s), of the undisturbed carousel (auto-advance included) or of --input's touches.
            """)

    @Option(help: "Config directory: carouseld.conf and its image directory.")
    var config: String = "config/example"

    @Option(help: "Frame size WIDTHxHEIGHT.")
    var size: String = "1920x1080"

    @Option(help: "Comma-separated times in seconds, e.g. 0,1.5,3.")
    var at: String = "0"

    @Option(help: "Output directory for the PNG files (created if missing).")
    var out: String

    @Option(help: "Render what this screen (an [[output]] table's name) shows: its part of a span, its own playlist when independent. --size is its size.")
    var output: String?

    @Option(help: "Render the wall-clock synced carousel (sync = \"wallclock\") as it is at this RFC 3339 time; --at counts from it.")
    var now: String?

    @Option(help: "Card cache directory: cards decoded once are read back from it (as the daemon's CacheDirectory=).")
    var cacheDir: String?

    @Option(help: "JSON touch script: [{\"t\":1.0,\"slot\":0,\"phase\":\"down\",\"x\":900,\"y\":400}, ...].")
    var input: String?

    func validate() throws {
        guard DisplayMode(parsing: size) != nil else {
            throw ValidationError("--size \(size) is not WIDTHxHEIGHT (1...16384 each), e.g. 1920x1080")
        }
        _ = try times()
        if let now, RFC3339.seconds(now) == nil {
            throw ValidationError("--now \(now) is not an RFC 3339 time, e.g. 2026-11-23T12:00:00Z")
        }
    }

    private func times() throws -> [Double] {
        let parts = at.split(separator: ",").map { $0.trimmingWhitespace() }
        let values = parts.compactMap(Double.init)
        guard !parts.isEmpty, values.count == parts.count, values.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 86_400 })
        else { throw ValidationError("--at \(at) must be comma-separated seconds between 0 and 86400, e.g. 0,1.5,3") }
        return values.sorted()
    }

    func run() throws {
        // The same loader as the daemon: carouseld.conf, then playlist.m3u or the media directory.
        let loaded: LoadedConfig
        do { loaded = try ConfigLoader.load(directory: config) } catch {
            for problem in error.problems { Log.error(problem) }
            throw ExitCode.failure
        }
        for warning in loaded.warnings { Log.warning(warning) }
        guard let mode = DisplayMode(parsing: size) else { throw ValidationError("--size \(size) is not WIDTHxHEIGHT") }
        let screen = Size(width: Double(mode.width), height: Double(mode.height))
        var preview = ScreenPreview(carousel: ScreenPlan.CarouselPlan(name: "", screens: [0], config: loaded.config),
                                    frame: screen, view: .identity, screen: screen)
        if let output {
            let plan = ScreenPlan.make(shell: loaded.shell, config: loaded.config)
            guard let found = ScreenPreview.make(plan: plan, output: output, size: screen) else {
                let names = plan.screens.compactMap(\.connector)
                Log.error("\(loaded.directory)/\(ConfigLoader.configFileName): no [[output]] named \(output); "
                          + (names.isEmpty ? "it has none" : "it names " + names.joined(separator: ", ")))
                throw ExitCode.failure
            }
            preview = found
        }
        let playlist = preview.carousel.playlistOutput.map { loaded.playlist(forOutput: $0) } ?? loaded.playlist
        let usable = Set(OfflineRenderer.usablePaths(playlist.map(\.path),
                                                     maxPixels: loaded.shell.media.maxImagePixels, source: loaded.mediaDirectory))
        let items = playlist.filter { usable.contains($0.path) }
        let touches = try input.map { path throws(TouchScript.Failure) in try TouchScript.load(path) } ?? []
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var wallClock: (schedule: WallClockSchedule, start: Double)?
        if let now, let start = RFC3339.seconds(now) {
            guard let schedule = WallClockSchedule(epoch: loaded.shell.sync.epoch, interval: preview.carousel.config.interval,
                                                   itemDurations: items.map(\.duration), itemCount: items.count) else {
                Log.error("--now: nothing pages by the clock (interval = 0 and no #EXTINF durations)")
                throw ExitCode.failure
            }
            wallClock = (schedule, start)
        }
        let cache = cacheDir.flatMap { CardCache(directory: $0, megabytes: loaded.shell.media.diskCacheMB) }
        // The cards decoded here are written before the command exits (a worker writes them when idle).
        defer { cache?.writePending() }
        let renderer = try OfflineRenderer(config: preview.carousel.config, shell: loaded.shell, paths: items.map(\.path),
                                           width: Int(preview.frame.width), height: Int(preview.frame.height),
                                           itemDurations: items.map(\.duration), touches: touches, view: preview.view,
                                           screen: (Int(preview.screen.width), Int(preview.screen.height)),
                                           wallClock: wallClock,
                                           cache: cache)
        for time in try times() {
            let path = "\(out)/\(OfflineRenderer.fileName(at: time))"
            try PNGWriter.write(renderer.frame(at: time), to: path)
            print(path)
        }
    }
}
