import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels

/// Renders frames of the carousel with no display: the engine is stepped at 60 Hz from 0 (as
/// the display would) with the touch script applied at its times, and at each requested time
/// the layout is composed after its cards are loaded. `render` and the golden tests use it.
final class OfflineRenderer {
    static let stepsPerSecond = 60.0

    private(set) var engine: CarouselEngine
    private let screen: OffscreenScreen
    private var touches: [TouchFrame]
    private var step = 0
    /// Paged by the wall clock from `wallStart` (seconds since 1970 at time 0), as a synced daemon.
    private let sync: (schedule: WallClockSchedule, wallStart: Double, lead: Double)?

    /// `paths` are the playlist (with `itemDurations` from #EXTINF); skipped files must already
    /// be removed (see `usablePaths`). `width`×`height` is the carousel's frame; `screen` (one
    /// screen of several, seen through `view`) the size of the picture written, if not that.
    init(config: CarouselConfig, shell: ShellSettings = ShellSettings(), paths: [String], width: Int, height: Int,
         itemDurations: [Double?] = [], touches: [TouchFrame] = [],
         view: ViewTransform = .identity, screen: (width: Int, height: Int)? = nil,
         wallClock: (schedule: WallClockSchedule, start: Double)? = nil, cache: (any CardCaching)? = nil) throws {
        let viewport = Size(width: Double(width), height: Double(height))
        // A written frame is looked at still, not seen in passing: always the full-quality filter.
        self.screen = try OffscreenScreen(config: config, shell: shell, paths: paths, viewport: viewport,
                                          size: screen ?? (width, height), view: view, seenInPassing: false, cache: cache)
        engine = CarouselEngine(config: config, itemCount: paths.count, viewport: viewport, now: 0,
                                itemDurations: itemDurations)
        self.touches = touches
        if let wallClock {
            let lead = engine.pageSettleDuration
            sync = (wallClock.schedule, wallClock.start, lead)
            engine.setPaused(true, now: 0)
            _ = engine.show(item: wallClock.schedule.target(at: wallClock.start, lead: lead), animated: false, now: 0)
        } else {
            sync = nil
        }
    }

    /// Headers of every listed file checked (format, size cap); skipped ones are logged once
    /// each, with a line of its own when nothing is left to show.
    static func usablePaths(_ paths: [String], maxPixels: Int, source: String) -> [String] {
        let usable = paths.filter { path in
            do throws(ImageError) { _ = try ImageDecoder.probe(path: path, maxPixels: maxPixels); return true }
            catch { Log.warning("skipping \(path): \(error)"); return false }
        }
        if usable.isEmpty {
            let why = paths.isEmpty ? "no picture files" : "none of its \(paths.count) picture files can be shown"
            Log.warning("no valid image in \(source) (\(why)): showing the background only, page dots hidden")
        }
        return usable
    }

    /// The frame at `time` (seconds, not earlier than the previous call). The buffer is reused.
    func frame(at time: Double) -> PixelBuffer {
        while Double(step + 1) / Self.stepsPerSecond <= time + 1e-9 {
            step += 1
            advance(to: Double(step) / Self.stepsPerSecond)
        }
        advance(to: max(time, engine.now))
        return screen.show(engine.layout())
    }

    private func advance(to time: Double) {
        while let touch = touches.first, touch.time <= time {
            touches.removeFirst()
            _ = engine.update(now: max(engine.now, touch.time))
            _ = engine.handle(touch)
        }
        _ = engine.update(now: time)
        // The daemon's rule (`WallClockSync`): on the clock's picture, the change started `lead` early.
        if let sync {
            let target = sync.schedule.target(at: sync.wallStart + time, lead: sync.lead)
            if target != engine.selectedIndex { _ = engine.follow(item: target, now: time) }
        }
    }

    /// "frame-0001.500.png": seconds with 3 decimals, zero-padded so names sort by time.
    static func fileName(at time: Double) -> String {
        formatted("frame-%08.3f.png", time)
    }
}
