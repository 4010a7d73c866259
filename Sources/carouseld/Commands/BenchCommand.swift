import ArgumentParser
import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels
import FoundationEssentials
import Glibc

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark composing and decoding (build with `swift build -c release` first).",
        discussion: """
            Prints, for 1920x1080 XRGB8888: compose p50/p99 for translate-only and for scaled-centre \
            frames against one memcpy of a frame; full vs scaled JPEG decode of a 4000x3000 photo; \
            peak RSS while paging through a playlist of generated 4000x3000 JPEGs. Each figure is \
            checked against its target (PASS/MISS). With --photos DIR: per picture of DIR its format, \
            size, progressive or not, decode-to-card time and the peak memory the decode added, \
            against djpeg/dwebp/vipsthumbnail where installed, then the peak RSS of paging through \
            DIR with an empty and with a filled card cache.
            """)

    @Option(help: "A directory of real pictures to measure instead of generated JPEGs.")
    var photos: String?

    @Flag(help: "With --photos: only the paging figures (for a directory of hundreds of pictures).")
    var pagingOnly = false

    @Option(help: "Generated photos in the peak-RSS playlist.")
    var count: Int = 200

    @Option(help: ArgumentHelp("Child mode: decode this file once and print the peak RSS it added.", visibility: .hidden))
    var decodePeak: String?

    @Option(help: ArgumentHelp("Child mode: the card size WIDTHxHEIGHT for --decode-peak.", visibility: .hidden))
    var card: String?

    @Flag(help: ArgumentHelp("Child mode: --rss-playlist pages through every picture, not only generated ones.", visibility: .hidden))
    var rssEveryFile = false

    @Option(help: ArgumentHelp("Child mode: --rss-playlist goes through a card cache in this directory.", visibility: .hidden))
    var rssCache: String?

    @Option(help: "The screen WIDTHxHEIGHT that frames and cards are made for.")
    var size = "1920x1080"

    @Option(help: "Frames timed per compose benchmark.")
    var frames: Int = 300

    @Option(help: ArgumentHelp("Child mode: cycle this directory's photos and print the peak RSS.", visibility: .hidden))
    var rssPlaylist: String?

    func validate() throws {
        guard (1...10_000).contains(count) else { throw ValidationError("--count \(count) must be 1...10000") }
        guard (10...100_000).contains(frames) else { throw ValidationError("--frames \(frames) must be 10...100000") }
        guard DisplayMode(parsing: size) != nil else { throw ValidationError("--size \(size) is not WIDTHxHEIGHT") }
    }

    @Option(help: "Run the whole daemon headless for this many seconds under config churn and flings, and check its longest loop gap while animating (50 ms).")
    var loopGap: Double?

    @Option(help: "With --loop-gap: the longest gap allowed, in ms (the soak issue's 50 by default).")
    var loopGapBound: Double = LoopGapBench.issueBound * 1000

    @Option(help: "With --loop-gap: the pictures' directory.")
    var media = "config/example/images"

    @Flag(help: "Only the section that composes into wl_shm-style (memfd) buffers, as under Wayland.")
    var waylandOnly = false

    @Flag(help: "Stop after the compose figures: no paging, decode or peak-RSS sections (scripts/bench repeats only these).")
    var composeOnly = false

    func run() throws {
        if let loopGap {
            let media = media.hasPrefix("/") ? media : FileManager.default.currentDirectoryPath + "/" + media
            guard try LoopGapBench(seconds: loopGap, media: media, bound: loopGapBound / 1000).run() else { throw ExitCode.failure }
            return
        }
        var bench = Benchmark()
        if let screen = DisplayMode(parsing: size) { (bench.width, bench.height) = (screen.width, screen.height) }
        if let decodePeak {
            // The parent's card: its size, the rest from the same default config.
            var spec = bench.cardSpec()
            if let size = card.flatMap(DisplayMode.init(parsing:)) { (spec.width, spec.height) = (size.width, size.height) }
            // The parent reads the last number: the decode again, with the code already paged in.
            let peak = PhotoBench.decodePeakAdded(path: decodePeak, spec: spec)
            print("decode-peak-added-bytes-first \(peak?.first ?? -1)")
            print("decode-peak-added-bytes \(peak?.again ?? -1)")
            return
        }
        if let rssPlaylist {
            let paths = (MediaDirectory(path: rssPlaylist)?.scan().paths ?? []).filter { rssEveryFile || $0.contains("/photo-") }
            // Room for every card and its preview: the second pass must be served from the cache
            // alone (a cache a little too small for a cycle misses every time: the least
            // recently used entry is always the next one wanted).
            let spec = bench.cardSpec()
            let entry = { (spec: CardSpec) in (spec.width + 2) * (spec.height + 2) * 4 + CardCacheHeader.byteCount }
            let megabytes = paths.count * (entry(spec) + (spec.preview.map(entry) ?? 0)) / 1_048_576 + 2
            let cache = rssCache.flatMap { CardCache(directory: $0, megabytes: megabytes) }
            let peak = bench.peakRSSCyclingPlaylist(Array(paths.prefix(count)), config: CarouselConfig(), cache: cache)
            for (group, bytes) in ResidentMap.groups() { print("resident \(bytes) \(group)") }
            print("peak-rss-bytes \(peak ?? -1)")
            return
        }
        #if DEBUG
        print("note: this is a debug build; figures are meaningful with `swift build -c release`")
        #endif
        let directory = (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/carouseld-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        if let photos {
            let photoBench = PhotoBench(executable: "/proc/self/exe", spec: bench.cardSpec(), scratch: directory,
                                        screen: ["--size", size])
            _ = try photoBench.report(directory: photos, scratch: directory, pagingOnly: pagingOnly) { print($0) }
            return
        }

        print("carouseld bench: \(bench.width)x\(bench.height) XRGB8888")
        var paths: [String] = []
        let generation = try Stopwatch.time {
            paths = try Benchmark.makePhotos(in: directory, distinct: 4, total: waylandOnly || composeOnly ? 5 : count)
        }
        print(formatted("generated 4 distinct 4000x3000 JPEGs (%.1f MB each), %d playlist entries, in %.1f s",
                     Double(fileSize(paths[0])) / 1e6, paths.count, generation))
        try waylandSection(bench, paths: Array(paths.prefix(5)))
        if waylandOnly { return }

        let hot = bench.memcpyTimings(runs: 60).p50
        print(formatted("memcpy of one frame (%d bytes) between the same two cache-resident buffers: %.3f ms (p50 of 60)",
                     bench.width * bench.height * 4, hot * 1e3))

        var flat = CarouselConfig()
        flat.emphasis.sideScale = 1; flat.emphasis.sideOpacity = 1; flat.emphasis.centerScale = 1; flat.emphasis.centerOpacity = 1
        let translate = bench.composeTimings(config: flat, paths: Array(paths.prefix(5)), frames: frames)
        report("compose, translate-only frames", translate, target: 1.5)
        let scaled = bench.composeTimings(config: CarouselConfig(), paths: Array(paths.prefix(5)), frames: frames)
        report("compose, scaled centre (scale 0.85-1, opacity 0.6-1)", scaled, target: 3)
        if composeOnly { return }

        // The last run adds 0.3 s to every full decode, a slow box's: previews stand in.
        for (rest, slow) in [(1.0, 0.0), (0, 0), (0, 0.3)] {
            let paging = bench.framesWithMissingCards(config: CarouselConfig(), paths: paths, pageChanges: 8, rest: rest,
                                                      slowDecodes: slow)
            print("real-time paging at 60 Hz, 8 page changes \(rest > 0 ? "1 s after the strip settles" : "back to back")"
                  + (slow > 0 ? formatted(", full decodes %.1f s slower", slow) : "") + ": " + paging.summary)
        }

        let decode = try bench.decodeFigures(path: paths[0], config: CarouselConfig(), runs: 5)
        let ratio = decode.scaled.p50 / decode.full.p50
        print(formatted("JPEG 4000x3000 -> %dx%d card, p50 of 5: full decode %.1f ms + scale = %.1f ms; scaled decode (%d/%d) streamed by rows into the scale = %.1f ms",
                     decode.card.width, decode.card.height, decode.fullDecodeOnly.p50 * 1e3, decode.full.p50 * 1e3,
                     decode.scale.num, decode.scale.denom, decode.scaled.p50 * 1e3))
        verdict(formatted("  scaled / full = %.2f", ratio), ratio <= 0.4, "target <= 0.40")

        let empty = directory + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let (baseline, _) = try peakRSSInChild(directory: empty, photos: 1)
        let (peak, seconds) = try peakRSSInChild(directory: directory, photos: paths.count)
        print(formatted("peak RSS of the same process with an empty playlist (Swift runtime, Foundation and the other libraries, one frame buffer): %.1f MB",
                     Double(baseline) / 1_048_576))
        verdict(formatted("peak RSS paging through %d photos: %.1f MB, %.1f MB above the empty playlist (fresh process, %.0f s)",
                       paths.count, Double(peak) / 1_048_576, Double(peak - baseline) / 1_048_576, seconds),
                peak <= 64 * 1_048_576, "target <= 64 MB")
    }

    /// Composing into three memfd-backed frames taken in turn, as the Wayland output draws into
    /// its wl_shm buffers, and finding each frame's damage rectangle against the one before.
    private func waylandSection(_ bench: Benchmark, paths: [String]) throws {
        let frames = try (0..<ShmBufferPool.maxBuffers).map { _ throws(DisplayError) in
            try SharedMemory(width: bench.width, height: bench.height)
        }
        let figures = bench.composeTimings(config: CarouselConfig(), paths: paths, frames: self.frames,
                                           into: frames.map(\.pixels), damage: true)
        report("wayland: compose into wl_shm (memfd) buffers, scaled centre", figures, target: 3)
        print(formatted("  damage rectangle against the frame before: p50 %.3f ms, p99 %.3f ms (%.2f x memcpy)",
                        figures.damage.p50 * 1e3, figures.damage.p99 * 1e3, figures.damage.p50 / figures.memcpy.p50))
        withExtendedLifetime(frames) {}
    }

    private func report(_ name: String, _ figures: Benchmark.ComposeFigures, target: Double) {
        let (timings, copies) = (figures.compose, figures.memcpy)
        print(formatted("\(name): p50 %.3f ms, p99 %.3f ms over %d frames; a memcpy of one frame beside each: p50 %.3f ms, p99 %.3f ms",
                     timings.p50 * 1e3, timings.p99 * 1e3, timings.count, copies.p50 * 1e3, copies.p99 * 1e3))
        print("  card pixels: \(figures.pixelShares) (nearest while the strip moves >= "
              + "\(Int(ScaledSampling.nearestFromPixelsPerFrame)) px/frame; copies include cards within the emphasis tolerance)")
        if figures.nearestFrames.count > 0 {
            print(formatted("  the %d frames sampled nearest alone: p50 %.3f ms = %.2f x memcpy, p99 %.3f ms",
                         figures.nearestFrames.count, figures.nearestFrames.p50 * 1e3,
                         figures.nearestFrames.p50 / copies.p50, figures.nearestFrames.p99 * 1e3))
        }
        let ratio = timings.p50 / copies.p50
        verdict(formatted("  compose p50 / memcpy p50 = %.2f (p99 / p99 = %.2f)", ratio, timings.p99 / copies.p99),
                ratio <= target, formatted("target <= %.1f", target))
    }

    private func verdict(_ line: String, _ pass: Bool, _ target: String) {
        print("\(line)  [\(target)] \(pass ? "PASS" : "MISS")")
    }

    /// Runs the playlist cycle in a fresh carouseld process, so the other benchmarks'
    /// allocations (a full-size 4000x3000 decode is 48 MB) do not count.
    private func peakRSSInChild(directory: String, photos: Int) throws -> (bytes: Int, seconds: Double) {
        var text = ""
        var status: Int32 = -1
        let seconds = try Stopwatch.time {
            (status, text) = try ChildProcess.run("/proc/self/exe", ["bench", "--rss-playlist", directory, "--count", String(photos)])
        }
        guard status == 0, let value = text.split(whereSeparator: \.isWhitespace).last.flatMap({ Int($0) }), value > 0 else {
            throw ValidationError("the peak-RSS child failed (status \(status)): \(text)")
        }
        return (value, seconds)
    }

    private func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
