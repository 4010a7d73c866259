import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels
import FoundationEssentials
import Glibc

/// `carouseld bench --photos DIR`: each picture of a directory decoded to a card the way the
/// daemon does it, against Debian's tools doing the same reduction, and the peak RSS of paging
/// through the whole directory without and with the card cache. Memory figures come from fresh
/// carouseld processes (`executable`), so nothing measured before counts.
struct PhotoBench {
    struct Row {
        var name: String
        var facts: PhotoFacts
        /// Best of `runs` in-process decodes to the card (file read included).
        var cardSeconds: Double
        /// Best of `runs` in-process decodes to the card's preview (a draft, `CardSpec.preview`).
        var previewSeconds: Double?
        /// Peak RSS a fresh process gained over the decode (decode buffers, the card, code paged in).
        var peakAddedBytes: Int?
        var tool: ReferenceTools.Timing?
        var ratio: Double? { tool.map { cardSeconds / $0.seconds } }
        /// The most a decode may add: 1.1x a progressive JPEG's coefficient arrays (libjpeg must
        /// hold them whatever the scale), else the card plus 8 MB.
        var peakTargetBytes: Int
        var meetsTargets: Bool {
            (ratio.map { $0 <= PhotoBench.ratioTarget } ?? true) && (peakAddedBytes.map { $0 <= peakTargetBytes } ?? false)
        }
    }

    /// Decode-to-card time against the best tool's.
    static let ratioTarget = 1.5

    static func peakTarget(_ facts: PhotoFacts, card: CardSpec) -> Int {
        facts.coefficientBytes.map { $0 * 11 / 10 } ?? card.byteCount + 8 * 1_048_576
    }

    struct Paging {
        var files: Int
        /// Peak RSS of the same child with an empty playlist: the floor.
        var emptyBytes: Int
        /// Paging with an empty card cache (every card decoded, then written to the cache).
        var coldBytes: Int
        /// Paging again, every card read from the cache.
        var warmBytes: Int
        var cacheBytesOnDisk: Int
        var coldSeconds: Double, warmSeconds: Double
        /// The largest progressive JPEG's coefficient arrays among the files (0 without one).
        var largestCoefficientBytes = 0
        /// Where the floor's resident memory is: (group, bytes), largest first.
        var floorGroups: [(String, Int)] = []

        /// First pass: 64 MB, plus what a progressive JPEG's coefficient arrays need beyond 24 MB.
        var coldTargetBytes: Int { 64 * 1_048_576 + max(0, largestCoefficientBytes - 24 * 1_048_576) }
        /// Second pass, every card from the cache: 48 MB.
        static let warmTargetBytes = 48 * 1_048_576
    }

    let executable: String
    let spec: CardSpec
    var runs = 3
    let tools: ReferenceTools

    /// The `--size` the paging children are given, so they page at the parent's screen size.
    let screen: [String]

    init(executable: String, spec: CardSpec, scratch: String, runs: Int = 3, screen: [String] = []) {
        self.executable = executable; self.spec = spec; self.runs = runs; self.screen = screen
        tools = ReferenceTools(scratch: scratch)
    }

    /// The pictures of `directory` the daemon would show, in its order.
    static func paths(in directory: String) -> [String] {
        MediaDirectory(path: directory)?.scan().paths ?? []
    }

    /// nil for a file carouseld does not show.
    func row(_ path: String) throws -> Row? {
        guard let facts = PhotoFacts(path: path) else { return nil }
        func best(_ spec: CardSpec) throws -> Double {
            var best = Double.infinity
            for _ in 0..<max(1, runs) {
                best = min(best, try Stopwatch.time { _ = try ImageDecoder.makeCard(path: path, spec: spec) })
            }
            return best
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return Row(name: name, facts: facts, cardSeconds: try best(spec), previewSeconds: try spec.preview.map(best),
                   peakAddedBytes: try peakAdded(path),
                   tool: tools.best(path: path, facts: facts, spec: spec, runs: max(1, runs)),
                   peakTargetBytes: Self.peakTarget(facts, card: spec))
    }

    /// Child mode: the peak RSS one decode added in this (fresh) process, the first time (code
    /// and libraries paged in included) and again (what each decode in a running daemon adds).
    static func decodePeakAdded(path: String, spec: CardSpec) -> (first: Int, again: Int)? {
        func once() -> Int? {
            let reset = PeakMemory.reset()
            guard let before = reset ? PeakMemory.resident() : PeakMemory.current() else { return nil }
            let card = try? ImageDecoder.makeCard(path: path, spec: spec)
            guard let peak = PeakMemory.current() else { return nil }
            withExtendedLifetime(card) {}
            return max(0, peak - before)
        }
        guard let first = once(), let again = once() else { return nil }
        return (first, again)
    }

    private func peakAdded(_ path: String) throws -> Int? {
        let output = try ChildProcess.run(executable, ["bench", "--decode-peak", path] + sizeArguments)
        return output.status == 0 ? Self.value(output.output) : nil
    }

    private var sizeArguments: [String] { ["--card", "\(spec.width)x\(spec.height)"] }

    /// Pages through `directory` in a fresh process with an empty playlist, then with a fresh
    /// card cache in `cacheDirectory`, then again from that cache.
    func paging(directory: String, files: Int, cacheDirectory: String, emptyDirectory: String) throws -> Paging {
        var floorGroups: [(String, Int)] = []
        func child(_ arguments: [String]) throws -> (Int, Double) {
            var result: (status: Int32, output: String) = (-1, "")
            let seconds = try Stopwatch.time { result = try ChildProcess.run(executable, ["bench"] + screen + arguments) }
            guard result.status == 0, let bytes = Self.value(result.output) else {
                throw ChildProcess.Failure(description: "the paging child failed (status \(result.status)): \(result.output)")
            }
            floorGroups = Self.residentGroups(result.output)
            return (bytes, seconds)
        }
        let (empty, _) = try child(["--rss-playlist", emptyDirectory, "--rss-every-file"])
        let floor = floorGroups
        // Every file, however many (the child's --count defaults to 200).
        let cached = ["--rss-playlist", directory, "--rss-every-file", "--rss-cache", cacheDirectory,
                      "--count", "\(min(10_000, max(1, files)))"]
        let (cold, coldSeconds) = try child(cached)
        let (warm, warmSeconds) = try child(cached)
        let onDisk = ((try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory)) ?? []).reduce(0) { total, name in
            var info = stat()
            return total + (stat("\(cacheDirectory)/\(name)", &info) == 0 ? Int(info.st_size) : 0)
        }
        let largest = Self.paths(in: directory).compactMap { PhotoFacts(path: $0)?.coefficientBytes }.max() ?? 0
        return Paging(files: files, emptyBytes: empty, coldBytes: cold, warmBytes: warm, cacheBytesOnDisk: onDisk,
                      coldSeconds: coldSeconds, warmSeconds: warmSeconds, largestCoefficientBytes: largest,
                      floorGroups: floor)
    }

    /// The "resident BYTES GROUP" lines a paging child printed (ResidentMap).
    static func residentGroups(_ output: String) -> [(String, Int)] {
        output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, fields[0] == "resident", let bytes = Int(fields[1]) else { return nil }
            return (String(fields[2]), bytes)
        }
    }

    /// The last whitespace-separated number a child printed.
    static func value(_ output: String) -> Int? {
        output.split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    // MARK: - Printing

    static let header = "file | format | size | progressive | decode to card ms | preview ms | peak added MB | best tool | tool ms | "
        + "carouseld / tool | coefficients MB | peak target MB | targets"

    static func line(_ row: Row) -> String {
        let peak = row.peakAddedBytes.map { formatted("%.1f", Double($0) / 1_048_576) } ?? "?"
        let tool = row.tool.map { ($0.tool, formatted("%.1f", $0.seconds * 1e3)) } ?? ("-", "-")
        let ratio = row.ratio.map { formatted("%.2f", $0) } ?? "-"
        let progressive = row.facts.format == "JPEG" ? (row.facts.progressive ? "yes" : "no") : "-"
        let coefficients = row.facts.coefficientBytes.map { formatted("%.1f", Double($0) / 1_048_576) } ?? "-"
        return "\(row.name) | \(row.facts.format) | \(row.facts.width)x\(row.facts.height) | \(progressive) | "
            + formatted("%.1f", row.cardSeconds * 1e3) + " | " + (row.previewSeconds.map { formatted("%.1f", $0 * 1e3) } ?? "-")
            + " | \(peak) | \(tool.0) | \(tool.1) | \(ratio) | \(coefficients) | "
            + formatted("%.1f", Double(row.peakTargetBytes) / 1_048_576) + " | " + (row.meetsTargets ? "PASS" : "MISS")
    }

    static func lines(_ paging: Paging) -> [String] {
        let mb = { (bytes: Int) in formatted("%.1f", Double(bytes) / 1_048_576) }
        let verdict = { (bytes: Int, target: Int) in " (target <= \(mb(target)) MB: \(bytes <= target ? "PASS" : "MISS"))" }
        return ["peak RSS with an empty playlist (the floor): \(mb(paging.emptyBytes)) MB"]
            + paging.floorGroups.map { "  resident at its end, \($0.0): \(mb($0.1)) MB" }
            + ["peak RSS paging through \(paging.files) pictures, card cache empty (decode, then write): "
                    + "\(mb(paging.coldBytes)) MB" + formatted(" in %.1f s", paging.coldSeconds)
                    + verdict(paging.coldBytes, paging.coldTargetBytes)
                    + "; largest progressive coefficient arrays \(mb(paging.largestCoefficientBytes)) MB",
                "peak RSS paging again, served from the card cache: \(mb(paging.warmBytes)) MB"
                    + formatted(" in %.1f s", paging.warmSeconds) + verdict(paging.warmBytes, Paging.warmTargetBytes),
                "card cache on disk: \(mb(paging.cacheBytesOnDisk)) MB for \(paging.files) cards of \(mb(paging.cacheBytesOnDisk / max(1, paging.files))) MB"]
    }
}
