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
    private let store: ImageStore
    private let compositor: Compositor
    private let frame: PixelImage
    private(set) var written = 0

    /// `paths` is the playlist the replay's engine pages through.
    init(config: CarouselConfig, shell: ShellSettings, paths: [String], screen: Size, directory: String) throws {
        guard let frame = PixelImage(width: Int(screen.width), height: Int(screen.height)) else {
            throw PNGWriter.Failure(path: directory, reason: "out of memory for a \(screen) frame")
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.frame = frame
        store = ImageStore(paths: paths, config: config, shell: shell, viewport: screen)
        compositor = Compositor(config: config, store: store)
    }

    /// A `Replay.FrameSink`: waits for the layout's pictures (a replay has time; the daemon
    /// would draw placeholders instead), composes and writes the frame.
    func write(tick: Int, time: Double, layout: FrameLayout) throws {
        store.waitUntilLoaded(for: layout)
        compositor.compose(layout, into: frame.buffer)
        try PNGWriter.write(frame.buffer, to: "\(directory)/\(OfflineRenderer.fileName(at: time))")
        written += 1
    }
}
