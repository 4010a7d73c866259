import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels
import Glibc

/// Where a carousel's start frames are kept (nil without a cache directory), the task that
/// writes them off the loop, and how many it wrote.
final class KeptFrames {
    let directory: String?
    let task: BackgroundTask<[String?]>
    var written = 0

    init(directory: String?, loop: EventLoop) {
        self.directory = directory
        task = BackgroundTask(name: "carouseld-keep", loop: loop)
    }
}

/// The start frame kept per screen: the carousel at rest on its first picture, as it is shown at
/// start (`carouseld render` at t = 0), written once per config, pictures and screen into the
/// cache directory (`frames/`). At the next start it is committed before anything is decoded,
/// and the live carousel takes over with no visible jump: it draws that layout again only once
/// every card of it is the full one, so the first live frame equals the kept one. A frame kept
/// for another config, other pictures (the shown ones' size, time and inode), another screen size
/// or another build of carouseld is not shown. A carousel synced to the wall clock starts on the
/// clock's picture, so it keeps none.
extension Carousel {
    /// A warm start's kept frame goes to the screen as the carousel is made, before the image
    /// stores, their threads and the rest of the daemon are set up (docs/performance.md has the
    /// figure). Not where a screen schedule may keep the screen dark at start: there it waits
    /// for `start`, after the schedule has decided.
    var showsKeptFrameAsMade: Bool { shell.schedule.screens.isEmpty }

    /// Commits each lit screen's kept start frame, if one matches; the others' is kept once the
    /// carousel first rests, final, on its start frame. Called once: as the carousel is made, or
    /// at `start` (`showsKeptFrameAsMade`).
    func showKeptFrames() {
        guard let directory = keeping.directory, screensOn, !engine.isMoving else { return }
        let start = engine.layout()
        guard start == startLayout() else { return }
        for index in screens.indices {
            guard let (path, key, width, height) = keptFrameFile(ofScreen: index, start: start, in: directory),
                  let frame = KeptFrameFile.read(path, key: key, width: width, height: height) else { continue }
            do {
                try screens[index].showKept(frame, layout: start)
                if startup.firstCommit == nil { startup.firstCommit = loop.time.now() }
                Log.info("\(prefix)\(screens[index].output.summary): the kept start frame is on its way to the screen")
            } catch {
                Log.warning("\(prefix)showing the kept start frame on \(screens[index].output.summary): \(error)")
            }
        }
    }

    /// Asks the renderers for the cards of each screen's kept frame: its live frame follows once
    /// they are full.
    func askForKeptFramesCards() {
        for index in screens.indices where screens[index].showsKeptFrame {
            if let kept = screens[index].lastDrawn { _ = screens[index].renderer.isFinal(kept) }
        }
    }

    /// After a frame of `layout` was committed: each screen whose start frame is not kept yet and
    /// that shows it, final, composes it once more off screen, and the files are written.
    func keepStartFrameIfDue(_ layout: FrameLayout) {
        // `layout` is then the start layout, which each screen's key is made of.
        guard let directory = keeping.directory, !keeping.task.isRunning, !layout.isMoving, layout.selectedIndex == 0,
              screens.contains(where: \.keepsStartFrame), layout == startLayout() else { return }
        var frames: [(memory: AnonymousMapping, buffer: PixelBuffer, key: UInt64, path: String)] = []
        for index in screens.indices where screens[index].keepsStartFrame && screens[index].lastDrawn == layout {
            guard screens[index].renderer.isFinal(layout),
                  let (path, key, width, height) = keptFrameFile(ofScreen: index, start: layout, in: directory),
                  let store = rendering.stores[transforms[index].scale],
                  // Its own mapping, given back whole when written (megabytes malloc'd would stay
                  // in glibc's heap, resident).
                  let memory = AnonymousMapping(byteCount: width * height * 4) else { continue }
            let buffer = PixelBuffer(base: memory.base, width: width, height: height, stride: width * 4)
            rendering.makeRenderer(store, config, transforms[index]).draw(layout, into: buffer)
            screens[index].keepsStartFrame = false
            frames.append((memory, buffer, key, path))
        }
        guard !frames.isEmpty else { return }
        // The writes (megabytes) are the worker's: the loop goes on drawing.
        keeping.task.start({
            frames.map { frame in
                withExtendedLifetime(frame.memory) {
                    KeptFrameFile.write(frame.buffer, key: frame.key, to: frame.path) ? nil : frame.path
                }
            }
        }, finished: { [weak self] failed in
            guard let self else { return }
            let failures = failed.compactMap { $0 }
            keeping.written += frames.count - failures.count
            for path in failures { Log.warning("\(prefix)could not keep the start frame in \(path)") }
            let kept = frames.map(\.path).filter { !failures.contains($0) }
            if !kept.isEmpty { Log.info("\(prefix)start frame kept: \(kept.joined(separator: ", "))") }
        })
    }

    /// The layout the carousel starts on: at rest on its first picture.
    func startLayout() -> FrameLayout {
        CarouselEngine(config: config, itemCount: items.count, viewport: engine.viewport, now: 0,
                       itemDurations: items.map(\.duration)).layout()
    }

    /// Where screen `index`'s start frame (of layout `start`, `startLayout()`) is kept, the key it
    /// must have, and its size; nil for a screen not lit, or a carousel that starts on the clock's
    /// picture.
    private func keptFrameFile(ofScreen index: Int, start: FrameLayout, in directory: String) -> (String, UInt64, Int, Int)? {
        let output = screens[index].output
        guard shell.sync.mode != .wallclock, let size = output.size else { return nil }
        let (width, height) = (Int(size.width), Int(size.height))
        // Written out field by field: a struct interpolated whole is reflected (40 ms at start).
        // The config file's digest stands for the settings; with the pictures, the screen and the
        // view, they make the start layout.
        let view = transforms[index], viewport = engine.viewport
        var key = "\(CardCacheKey.buildIdentity) \(width)x\(height) \(view.scale) \(view.originX) \(view.originY) "
            + "\(screens[index].rotation) \(viewport.width)x\(viewport.height) \(content.configDigest)\n"
        for item in items { key += "\(item.path) \(item.duration ?? -1)\n" }
        for shown in Set(start.cards.map(\.index)).sorted() where items.indices.contains(shown) {
            key += FileStamp(path: items[shown].path).map { "\($0.device) \($0.inode) \($0.size) \($0.mtimeNanoseconds)\n" }
                ?? "missing\n"
        }
        let name = output.connectorName ?? output.devicePath.split(separator: "/").last.map(String.init) ?? "screen"
        let screen = plan.screens.indices.contains(index) ? plan.screens[index] : index
        return ("\(directory)/\(name).\(screen).frame", FNV.hash(key), width, height)
    }
}

extension Carousel.Screen {
    /// Commits the kept frame of `layout` as this screen's frame; its live frame follows once final.
    mutating func showKept(_ frame: KeptFrameFile.Frame, layout: FrameLayout) throws(DisplayError) {
        let buffer = try output.acquire()
        KeptFrameFile.copy(frame, into: buffer)
        _ = try output.commit(FrameState(primary: buffer), .apply)
        power = .on
        lastDrawn = layout
        redraw = false
        showsKeptFrame = true
        keepsStartFrame = false
    }
}
