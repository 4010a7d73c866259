import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels
import FoundationEssentials
import Glibc

/// The measurements behind `carouseld bench`, at one screen size. Frames come from the real
/// engine paging through real decoded photos, composed the way the daemon composes them
/// (alternating between two target buffers, as with page flipping).
struct Benchmark {
    var width = 1920
    var height = 1080
    var viewport: Size { Size(width: Double(width), height: Double(height)) }

    /// The card the daemon makes for this screen with `config`.
    func cardSpec(config: CarouselConfig = CarouselConfig()) -> CardSpec {
        CardSpec(config: config, maxImagePixels: ShellSettings().media.maxImagePixels,
                 cardWidth: config.cardWidth.resolve(in: viewport.width),
                 cardHeight: config.cardHeight.resolve(in: viewport.height))
    }

    /// Writes `distinct` generated 4000×3000 JPEGs into `directory` and names `total` playlist
    /// entries after them (hard links, so 200 photos cost the disk space of a few).
    static func makePhotos(in directory: String, distinct: Int, total: Int,
                           width: Int = 4000, height: Int = 3000) throws -> [String] {
        var sources: [String] = []
        for k in 0..<max(1, distinct) {
            guard let photo = SyntheticPhoto.make(width: width, height: height, seed: UInt32(k + 1)),
                  let jpeg = JPEGEncoder.encode(photo, quality: 90) else {
                throw PNGWriter.Failure(path: directory, reason: "cannot generate a \(width)x\(height) photo")
            }
            let path = "\(directory)/source-\(k).jpg"
            try Data(jpeg).write(to: URL(fileURLWithPath: path))
            sources.append(path)
        }
        return try (0..<total).map { i in
            let path = "\(directory)/\(formatted("photo-%03d.jpg", i))"
            if link(sources[i % sources.count], path) != 0 {
                try FileManager.default.copyItem(atPath: sources[i % sources.count], toPath: path)
            }
            return path
        }
    }

    /// One plain memcpy of a whole frame between the same two (so cache-resident) buffers.
    func memcpyTimings(runs: Int) -> Timings {
        var timings = Timings()
        guard let source = PixelImage(width: width, height: height),
              let destination = PixelImage(width: width, height: height) else { return timings }
        source.fill(0x336699); destination.fill(0) // fault every page in before timing
        for _ in 0..<runs {
            timings.add(Stopwatch.time { memcpy(destination.base, source.base, source.byteCount) })
        }
        return timings
    }

    /// Compose time of `frames` moving frames while the engine pages forward again and again,
    /// and beside each compose the time of one plain memcpy of a frame (three sources, two
    /// destinations in turn, like the cards and page-flipped targets), so both figures are
    /// taken under the same load and cache conditions. Each page change waits at rest until the
    /// store has prefetched the next card, as during auto-advance's interval, so no decode runs
    /// beside the timed frames (`framesWithMissingCards` pages without waiting).
    struct ComposeFigures {
        var compose = Timings(), memcpy = Timings(), damage = Timings()
        /// Card pixels of the timed frames by how they were drawn.
        var copiedPixels = 0, bilinearPixels = 0, nearestPixels = 0
        /// Compose times of the frames that sampled scaled cards nearest (the fast ones).
        var nearestFrames = Timings()
        /// "61 % copied, ..." of all card pixels.
        var pixelShares: String {
            let total = Double(max(1, copiedPixels + bilinearPixels + nearestPixels))
            return formatted("%.0f %% copied, %.0f %% sampled bilinear, %.0f %% sampled nearest",
                          Double(copiedPixels) / total * 100, Double(bilinearPixels) / total * 100,
                          Double(nearestPixels) / total * 100)
        }
    }

    /// `into`: the frame buffers drawn into in turn (default: two in ordinary memory); the
    /// Wayland section passes memfd-backed ones, as wl_shm buffers are. `damage` also times
    /// finding the changed rectangle against the frame before, as the Wayland output does.
    func composeTimings(config: CarouselConfig, paths: [String], frames: Int,
                        into given: [PixelBuffer]? = nil, damage: Bool = false) -> ComposeFigures {
        var config = config
        config.interval = 0
        var engine = CarouselEngine(config: config, itemCount: paths.count, viewport: viewport, now: 0)
        let store = ImageStore(paths: paths, config: config, viewport: viewport)
        let compositor = Compositor(config: config, store: store)
        let images = [PixelImage(width: width, height: height), PixelImage(width: width, height: height)].compactMap { $0 }
        let targets = given ?? images.map(\.buffer)
        let copySources = (0..<3).compactMap { _ in PixelImage(width: width, height: height) }
        let copyTargets = (0..<2).compactMap { _ in PixelImage(width: width, height: height) }
        (images + copyTargets).forEach { $0.fill(0) }
        copySources.forEach { $0.fill(0x336699) }
        var figures = ComposeFigures()
        var t = 0.0, drawn = 0, warmUp = 10
        while figures.compose.count < frames && t < 600 {
            if !engine.isMoving {
                store.waitUntilPrefetched(for: engine.layout())
                _ = engine.page(by: 1, now: t)
            }
            t += 1.0 / 60
            _ = engine.update(now: t)
            let layout = engine.layout()
            store.waitUntilLoaded(for: layout)
            var didDraw = false
            let target = targets[drawn % targets.count]
            let seconds = Stopwatch.time { didDraw = compositor.compose(layout, into: target) }
            guard didDraw else { continue }
            if damage, drawn > 0 {
                let previous = targets[(drawn - 1) % targets.count]
                figures.damage.add(Stopwatch.time { _ = FrameDamage.changed(previous, target) })
            }
            let source = copySources[drawn % 3], destination = copyTargets[drawn % 2]
            let copy = Stopwatch.time { memcpy(destination.base, source.base, source.byteCount) }
            drawn += 1
            if warmUp > 0 { warmUp -= 1; continue }
            figures.compose.add(seconds); figures.memcpy.add(copy)
            figures.copiedPixels += compositor.lastCardPixels.copied
            if compositor.lastSampling == .nearest {
                figures.nearestPixels += compositor.lastCardPixels.scaled
                figures.nearestFrames.add(seconds)
            } else {
                figures.bilinearPixels += compositor.lastCardPixels.scaled
            }
        }
        // `targets` point into `images`' memory: without this, an optimised build may free them
        // after their last use above (the fill) and compose into freed memory.
        withExtendedLifetime(images) {}
        return figures
    }

    struct DecodeFigures {
        var full = Timings(), fullDecodeOnly = Timings()
        var scaled = Timings()
        var scale = JPEGScale(num: 1, denom: 1)
        var card = (width: 0, height: 0)
    }

    /// One JPEG to one card: a full-size decode by libturbojpeg plus the resample, against what
    /// carouseld does (the DCT-scaled decode streamed a band of rows at a time into the same
    /// resample). File reading is left out of both.
    func decodeFigures(path: String, config: CarouselConfig, runs: Int) throws -> DecodeFigures {
        let opened = try ImageFile.Opened(path)
        let file = try opened.read()
        let spec = CardSpec(config: config, maxImagePixels: ShellSettings().media.maxImagePixels,
                            cardWidth: config.cardWidth.resolve(in: viewport.width),
                            cardHeight: config.cardHeight.resolve(in: viewport.height))
        var figures = DecodeFigures()
        figures.card = (spec.width, spec.height)
        let header = try file.withUnsafeBytes { try JPEGDecoder.header($0) }
        let needed = FitPlacement(imageWidth: header.upright.width, imageHeight: header.upright.height,
                                  cardWidth: spec.width, cardHeight: spec.height, fit: spec.fit).scale
        figures.scale = JPEGScale.choose(width: header.width, height: header.height, needed: needed,
                                         available: JPEGDecoder.availableScales)
        for _ in 0..<runs {
            var decoded: DecodedImage?
            let decoding = try Stopwatch.time { decoded = try file.withUnsafeBytes { try JPEGDecoder.decode($0, header: header, neededScale: 1) } }
            let scaling = try Stopwatch.time { _ = try decoded.map { try CardScaler.makeCard(from: $0, spec: spec) } }
            decoded = nil
            figures.fullDecodeOnly.add(decoding)
            figures.full.add(decoding + scaling)
            figures.scaled.add(try Stopwatch.time {
                guard let rows = try JPEGRowDecoder.open(opened, header: header, neededScale: needed) else { return }
                _ = try CardScaler.makeCard(from: rows, spec: spec)
            })
        }
        return figures
    }

    /// Frames of a real-time paging run by what their visible cards showed.
    struct PagingFigures {
        /// Frames with a visible card in the background colour: neither card nor preview yet.
        var missing = 0
        /// Frames with a visible card shown as its preview (the full card not decoded yet).
        var previews = 0
        var frames = 0
        var summary: String {
            "\(missing) of \(frames) frames showed a background-coloured card, \(previews) a preview"
        }
    }

    /// Pages forward `pageChanges` times in real time (60 Hz frames on the wall clock, the next
    /// page `rest` seconds after the strip settles) with the daemon's store and its decode
    /// worker, and counts the frames that had to show a visible card in the background colour
    /// (neither its card nor its preview decoded yet) and those that showed a preview.
    /// `slowDecodes`: seconds added before each full-card decode, a slow box's decode thread.
    func framesWithMissingCards(config: CarouselConfig, paths: [String], pageChanges: Int,
                                rest: Double, slowDecodes: Double = 0) -> PagingFigures {
        var config = config
        config.interval = 0
        var engine = CarouselEngine(config: config, itemCount: paths.count, viewport: viewport, now: 0)
        let delay = UInt32(max(0, slowDecodes) * 1e6)
        let slow: @Sendable (Int, Bool) -> Void = { _, preview in if !preview { usleep(delay) } }
        let store = ImageStore(paths: paths, spec: cardSpec(config: config), cacheMB: ShellSettings().media.cacheMB,
                               beforeDecode: delay > 0 ? slow : nil)
        let compositor = Compositor(config: config, store: store)
        guard let target = PixelImage(width: width, height: height) else { return PagingFigures() }
        store.waitUntilLoaded(for: engine.layout()) // the first picture, as at start-up
        let start = Stopwatch.now()
        var figures = PagingFigures(), changes = 0
        var settled = 0.0
        while changes < pageChanges || engine.isMoving {
            let now = Stopwatch.now() - start
            if !engine.isMoving && now - settled >= rest { _ = engine.page(by: 1, now: now); changes += 1 }
            let wasMoving = engine.isMoving
            _ = engine.update(now: now)
            if wasMoving && !engine.isMoving { settled = now }
            let layout = engine.layout()
            let ready = store.cards(for: layout)
            if layout.cards.contains(where: { ready[$0.index] == nil }) { figures.missing += 1 }
            if layout.cards.contains(where: { ready[$0.index]?.isPreview == true }) { figures.previews += 1 }
            compositor.compose(layout, into: target.buffer)
            figures.frames += 1
            let next = Double(figures.frames) / 60 - (Stopwatch.now() - start)
            if next > 0 { usleep(UInt32(next * 1e6)) }
        }
        return figures
    }

    /// Pages through the whole playlist like the daemon, back to back, and returns the peak
    /// RSS. Each page change draws its first frame (the card leaving still peeks in, while the
    /// store starts on the next card), a frame mid-way, and the settled frame (where the store
    /// prefetches the card after). Run in a fresh process so nothing else counts. `cache`:
    /// the card cache on disk, as the daemon has it under systemd.
    func peakRSSCyclingPlaylist(_ paths: [String], config: CarouselConfig, cache: CardCache? = nil) -> Int? {
        var config = config
        config.interval = 0
        var engine = CarouselEngine(config: config, itemCount: paths.count, viewport: viewport, now: 0)
        var shell = ShellSettings()
        if let cache { shell.media.diskCacheMB = cache.state.withLock { $0.limitBytes } / 1_048_576 }
        guard let screen = try? OffscreenScreen(config: config, shell: shell, paths: paths, viewport: viewport,
                                                size: (width, height), seenInPassing: true, cache: cache) else { return nil }
        var t = 0.0
        func draw() { _ = screen.show(engine.layout()) }
        draw()
        for _ in paths.indices {
            _ = engine.page(by: 1, now: t)
            for step in [1.0 / 60, 0.15] {
                _ = engine.update(now: t + step)
                draw()
            }
            t += 0.15
            let deadline = t + 10
            while engine.isMoving && t < deadline { t += 1.0 / 60; _ = engine.update(now: t) }
            draw()
        }
        return PeakMemory.current()
    }
}
