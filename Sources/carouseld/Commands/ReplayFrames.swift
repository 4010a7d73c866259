import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels
import FoundationEssentials

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
