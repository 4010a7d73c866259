import ArgumentParser
import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels
import FoundationEssentials

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a libinput recording through the engine.",
        discussion: """
            Reads a file written by `libinput record`, feeds its touches (and Left/Right keys, and \
            left-button pointer drags) through the same input path and engine as the daemon, with \
            the recording's timestamps, and prints one JSON object per line: release, tap, \
            activated and settled events.
            """)

    @Argument(help: "A `libinput record` YAML file.")
    var recording: String

    @Option(help: "Screen size WIDTHxHEIGHT the touches are mapped to, e.g. 1280x800.")
    var size: String

    @Option(help: "Config directory (carouseld.conf and the pictures); defaults are used without it.")
    var config: String?

    @Option(help: "Number of pictures when no --config is given.")
    var items: Int?

    @Option(help: "Write the frames a 60 Hz screen would show as PNG files into this directory (needs --config).")
    var frames: String?

    func validate() throws {
        guard DisplayMode(parsing: size) != nil else {
            throw ValidationError("--size \(size) is not a size; use WIDTHxHEIGHT such as 1280x800")
        }
        if let items, items < 0 { throw ValidationError("--items \(items) must be 0 or more") }
        if let items, let config {
            throw ValidationError("--items \(items) and --config \(config) both set the pictures; give one")
        }
        if let frames, config == nil {
            throw ValidationError("--frames \(frames) needs --config DIR: the pictures to draw")
        }
    }

    func run() throws {
        guard let mode = DisplayMode(parsing: size) else { throw ValidationError("--size \(size) is not WIDTHxHEIGHT") }
        let screen = Size(width: Double(mode.width), height: Double(mode.height))
        var settings = CarouselConfig()
        var shell = ShellSettings()
        var playlist: [PlaylistItem] = []
        if let config {
            do {
                let loaded = try ConfigLoader.load(directory: config)
                loaded.warnings.forEach { Log.warning($0) }
                settings = loaded.config
                shell = loaded.shell
                playlist = loaded.playlist
            } catch {
                error.problems.forEach { Log.error($0) }
                throw ExitCode.failure
            }
        }
        let replay = Replay(config: settings, shell: shell, screen: screen, itemCount: config == nil ? items ?? 5 : playlist.count,
                            itemDurations: playlist.map(\.duration))
        do {
            let writer = try frames.map {
                try ReplayFrames(config: settings, shell: shell, paths: playlist.map(\.path), screen: screen, directory: $0)
            }
            try replay.run(path: recording, emit: { print($0) }, frames: writer?.write)
        } catch let error as RecordingError {
            Log.error("replay: \(error)")
            throw ExitCode.failure
        } catch let error as PNGWriter.Failure {
            Log.error("replay: \(error)")
            throw ExitCode.failure
        }
    }
}

/// `carouseld replay --frames DIR`: every 60 Hz frame of a replay as a PNG, drawn by the same
/// image store and compositor as the daemon, so a user sees offline what the panel would show.
/// Files are named by the recording's time like `carouseld render`'s (frame-0001.500.png).
final class ReplayFrames {
    private let directory: String
    private let screen: OffscreenScreen
    private(set) var written = 0

    /// `paths` is the playlist the replay's engine pages through.
    init(config: CarouselConfig, shell: ShellSettings, paths: [String], screen: Size, directory: String) throws {
        self.screen = try OffscreenScreen(config: config, shell: shell, paths: paths, viewport: screen,
                                          size: (Int(screen.width), Int(screen.height)), seenInPassing: true)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.directory = directory
    }

    /// A `Replay.FrameSink`: waits for the layout's pictures (a replay has time; the daemon
    /// would draw placeholders instead), composes and writes the frame.
    func write(tick: Int, time: Double, layout: FrameLayout) throws {
        try PNGWriter.write(screen.show(layout), to: "\(directory)/\(OfflineRenderer.fileName(at: time))")
        written += 1
    }
}
