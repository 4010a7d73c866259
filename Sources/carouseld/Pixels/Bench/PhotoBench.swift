import CarouselEngine
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
        /// Peak RSS a fresh process gained over the decode (decode buffers, the card, code paged in).
        var peakAddedBytes: Int?
        var tool: ReferenceTools.Timing?
        var ratio: Double? { tool.map { cardSeconds / $0.seconds } }
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
    }

    let executable: String
    let spec: CardSpec
    var runs = 3
    let tools: ReferenceTools

    init(executable: String, spec: CardSpec, scratch: String, runs: Int = 3) {
        self.executable = executable; self.spec = spec; self.runs = runs
        tools = ReferenceTools(scratch: scratch)
    }

    /// The pictures of `directory` the daemon would show, in its order.
    static func paths(in directory: String) -> [String] {
        MediaDirectory(path: directory)?.scan().paths ?? []
    }

    /// nil for a file carouseld does not show.
    func row(_ path: String) throws -> Row? {
        guard let facts = PhotoFacts(path: path) else { return nil }
        var best = Double.infinity
        for _ in 0..<max(1, runs) {
            best = min(best, try Stopwatch.time { _ = try ImageDecoder.makeCard(path: path, spec: spec) })
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return Row(name: name, facts: facts, cardSeconds: best, peakAddedBytes: try peakAdded(path),
                   tool: tools.best(path: path, facts: facts, spec: spec, runs: max(1, runs)))
    }

    /// Child mode: one decode in this (fresh) process; the peak RSS it added.
    static func decodePeakAdded(path: String, spec: CardSpec) -> Int? {
        let reset = PeakMemory.reset()
        guard let before = reset ? PeakMemory.resident() : PeakMemory.current() else { return nil }
        let card = try? ImageDecoder.makeCard(path: path, spec: spec)
        guard let peak = PeakMemory.current() else { return nil }
        withExtendedLifetime(card) {}
        return max(0, peak - before)
    }

    private func peakAdded(_ path: String) throws -> Int? {
        let output = try ChildProcess.run(executable, ["bench", "--decode-peak", path] + sizeArguments)
        return output.status == 0 ? Self.value(output.output) : nil
    }

    private var sizeArguments: [String] { ["--card", "\(spec.width)x\(spec.height)"] }

    /// Pages through `directory` in a fresh process with an empty playlist, then with a fresh
    /// card cache in `cacheDirectory`, then again from that cache.
    func paging(directory: String, files: Int, cacheDirectory: String, emptyDirectory: String) throws -> Paging {
        func child(_ arguments: [String]) throws -> (Int, Double) {
            var result: (status: Int32, output: String) = (-1, "")
            let seconds = try Stopwatch.time { result = try ChildProcess.run(executable, ["bench"] + arguments) }
            guard result.status == 0, let bytes = Self.value(result.output) else {
                throw ChildProcess.Failure(description: "the paging child failed (status \(result.status)): \(result.output)")
            }
            return (bytes, seconds)
        }
        let (empty, _) = try child(["--rss-playlist", emptyDirectory, "--rss-every-file"])
        let cached = ["--rss-playlist", directory, "--rss-every-file", "--rss-cache", cacheDirectory]
        let (cold, coldSeconds) = try child(cached)
        let (warm, warmSeconds) = try child(cached)
        let onDisk = ((try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory)) ?? []).reduce(0) { total, name in
            var info = stat()
            return total + (stat("\(cacheDirectory)/\(name)", &info) == 0 ? Int(info.st_size) : 0)
        }
        return Paging(files: files, emptyBytes: empty, coldBytes: cold, warmBytes: warm, cacheBytesOnDisk: onDisk,
                      coldSeconds: coldSeconds, warmSeconds: warmSeconds)
    }

    /// The last whitespace-separated number a child printed.
    static func value(_ output: String) -> Int? {
        output.split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    // MARK: - Printing

    static let header = "file | format | size | progressive | decode to card ms | peak added MB | best tool | tool ms | carouseld / tool"

    static func line(_ row: Row) -> String {
        let peak = row.peakAddedBytes.map { formatted("%.1f", Double($0) / 1_048_576) } ?? "?"
        let tool = row.tool.map { ($0.tool, formatted("%.1f", $0.seconds * 1e3)) } ?? ("-", "-")
        let ratio = row.ratio.map { formatted("%.2f", $0) } ?? "-"
        let progressive = row.facts.format == "JPEG" ? (row.facts.progressive ? "yes" : "no") : "-"
        return "\(row.name) | \(row.facts.format) | \(row.facts.width)x\(row.facts.height) | \(progressive) | "
            + formatted("%.1f", row.cardSeconds * 1e3) + " | \(peak) | \(tool.0) | \(tool.1) | \(ratio)"
    }

    static func lines(_ paging: Paging) -> [String] {
        let mb = { (bytes: Int) in formatted("%.1f", Double(bytes) / 1_048_576) }
        return ["peak RSS with an empty playlist (the floor): \(mb(paging.emptyBytes)) MB",
                "peak RSS paging through \(paging.files) pictures, card cache empty (decode, then write): "
                    + "\(mb(paging.coldBytes)) MB" + formatted(" in %.1f s", paging.coldSeconds),
                "peak RSS paging again, served from the card cache: \(mb(paging.warmBytes)) MB"
                    + formatted(" in %.1f s", paging.warmSeconds),
                "card cache on disk: \(mb(paging.cacheBytesOnDisk)) MB for \(paging.files) cards of \(mb(paging.cacheBytesOnDisk / max(1, paging.files))) MB"]
    }
}
