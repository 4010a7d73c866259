import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels
import Glibc

/// What `carouseld check` finds in a config directory: everything the daemon would load,
/// plus whether each picture decodes to a card (as the image store would decode it). Errors make the check fail; warnings do not.
struct ConfigCheckReport: Equatable {
    var directory: String
    var errors: [String] = []
    var warnings: [String] = []
    var imageCount = 0
    /// How the pictures were decoded: nil when the config did not load.
    var decoding: Decoding?

    struct Decoding: Equatable {
        var pictures: Int
        var seconds: Double
        var threads: Int

        /// "decoded 12 pictures in 0.84 s on 2 cores"
        var summary: String {
            "decoded \(pictures) picture\(pictures == 1 ? "" : "s") in \(formatted("%.2f", seconds)) s"
                + " on \(threads) core\(threads == 1 ? "" : "s")"
        }
    }

    var isValid: Bool { errors.isEmpty }

    /// The closing line, in the spirit of `nginx -t`.
    var summary: String {
        isValid
            ? "configuration \(directory) is ok: \(imageCount) image(s)"
                + (warnings.isEmpty ? "" : ", \(warnings.count) warning(s)")
            : "configuration \(directory) is invalid: \(errors.count) error(s)"
    }
}

enum ConfigCheck {
    /// Says why the picture at a path would be skipped (nil when it can be shown), for one card spec.
    typealias ImageDecode = @Sendable (_ path: String, _ spec: CardSpec) -> String?

    /// The screen `check` decodes for when none is given: it has no display to ask.
    static let defaultScreen = Size(width: 1920, height: 1080)

    /// The daemon's decode path, in full: header checks, the whole decode and the card resample
    /// (`ImageDecoder.makeCard`), so a file cut short is found as the image store would find it.
    static func decodeProblem(path: String, spec: CardSpec) -> String? {
        do {
            _ = try ImageDecoder.makeCard(path: path, spec: spec)
            return nil
        } catch {
            return error.description
        }
    }

    /// The card the daemon would make on `screen`: `card_width`/`card_height` resolved in it,
    /// `fit`, `background` and `max_image_pixels` from the config.
    static func cardSpec(_ config: CarouselConfig, shell: ShellSettings, screen: Size) -> CardSpec {
        CardSpec(config: config, maxImagePixels: shell.media.maxImagePixels, cardWidth: config.cardWidth.resolve(in: screen.width),
                 cardHeight: config.cardHeight.resolve(in: screen.height))
    }

    static func run(directory: String, screen: Size = defaultScreen, threads: Int = ParallelDecode.onlineCores(),
                    decode: @escaping ImageDecode = decodeProblem,
                    connectors: () -> [String]? = Backends.drmConnectorNames) -> ConfigCheckReport {
        var report = ConfigCheckReport(directory: directory)
        let loaded: LoadedConfig
        do {
            loaded = try ConfigLoader.load(directory: directory)
        } catch {
            report.errors = error.problems
            report.warnings = error.warnings
            return report
        }
        report.directory = loaded.directory
        report.warnings = loaded.warnings
        report.imageCount = loaded.playlist.count + loaded.outputPlaylists.values.reduce(0) { $0 + $1.count }
        // [[output]] connectors the DRM cards lack.
        if Backends.tablesNameConnectors(loaded.shell.backend), !loaded.shell.outputs.isEmpty,
           let available = connectors() {
            report.errors += OutputTables.unknownConnectors(loaded.shell.outputs, available: available,
                file: loaded.directory + "/" + ConfigLoader.configFileName).map(\.description)
        }
        // Each file once, even if playlists repeat it, at the card of the first playlist naming
        // it (an [[output]]'s own settings for its own playlist); reported in playlist order.
        let mainSpec = cardSpec(loaded.config, shell: loaded.shell, screen: screen)
        var specs: [String: CardSpec] = [:]
        var paths: [String] = []
        func add(_ items: [PlaylistItem], _ spec: CardSpec) {
            for item in items where specs[item.path] == nil {
                specs[item.path] = spec
                paths.append(item.path)
            }
        }
        add(loaded.playlist, mainSpec)
        for table in loaded.shell.outputs {
            if let items = loaded.outputPlaylists[table.name] {
                add(items, cardSpec(table.config, shell: loaded.shell, screen: screen))
            }
        }
        let start = MonotonicClock.now()
        let (problems, used) = ParallelDecode.run(paths, threads: threads) { [specs] in decode($0, specs[$0] ?? mainSpec) }
        report.decoding = .init(pictures: paths.count, seconds: MonotonicClock.now() - start, threads: used)
        report.errors += summarisedDecodeProblems(zip(paths, problems).compactMap { path, problem in problem.map { (path, $0) } })
        return report
    }
}

/// Runs a job for each item on up to `threads` threads (pthreads, the decode worker's kind),
/// the items handed out one at a time, and returns the results in item order.
enum ParallelDecode {
    static func onlineCores() -> Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// The state the threads share, under its condition lock.
    private final class Shared: @unchecked Sendable {
        let condition = ConditionLock()
        var next = 0
        var running: Int
        var results: [String?]
        init(count: Int, running: Int) { results = Array(repeating: nil, count: count); self.running = running }
    }

    /// Each item's result (a skip reason or nil), and how many threads ran.
    static func run(_ items: [String], threads: Int,
                    _ job: @escaping @Sendable (String) -> String?) -> (results: [String?], threads: Int) {
        let count = max(1, min(threads, items.count))
        guard !items.isEmpty else { return ([], 0) }
        let shared = Shared(count: items.count, running: count)
        for number in 0..<count {
            DetachedThread.start(name: "carouseld-check\(number)") {
                while true {
                    let index: Int = shared.condition.withLock {
                        defer { shared.next += 1 }
                        return shared.next
                    }
                    guard index < items.count else { break }
                    let result = job(items[index])
                    shared.condition.withLock { shared.results[index] = result }
                }
                shared.condition.withLock {
                    shared.running -= 1
                    shared.condition.broadcast()
                }
            }
        }
        shared.condition.lock()
        while shared.running > 0 { shared.condition.wait() }
        let results = shared.results
        shared.condition.unlock()
        return (results, count)
    }
}

extension ConfigCheck {
    /// "skipping PATH: REASON" for a reason a few pictures share; one line for a reason more
    /// share, with the count and the first few ("skipping 50 pictures: REASON: a.png, b.png,
    /// c.png and 47 more"), so a directory of broken files does not bury everything else.
    static func summarisedDecodeProblems(_ failures: [(path: String, reason: String)], listed: Int = 3) -> [String] {
        var order: [String] = []
        var paths: [String: [String]] = [:]
        for failure in failures {
            if paths[failure.reason] == nil { order.append(failure.reason) }
            paths[failure.reason, default: []].append(failure.path)
        }
        return order.flatMap { reason -> [String] in
            let all = paths[reason] ?? []
            guard all.count > listed else { return all.map { "skipping \($0): \(reason)" } }
            return ["skipping \(all.count) pictures: \(reason): " + all.prefix(listed).joined(separator: ", ")
                    + " and \(all.count - listed) more"]
        }
    }
}
