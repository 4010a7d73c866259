import CarouselCore
import CarouselPixels
import Glibc

/// Debian's own command-line decoders doing the reduction carouseld does (a photo down to
/// about the card's size), timed in the same run so `bench --photos` can print a ratio:
/// `djpeg -scale M/8` (libjpeg-turbo-progs), `dwebp -scale` (webp), `vipsthumbnail`
/// (libvips-tools). Each is a process of its own, so its time includes exec (~1 ms).
struct ReferenceTools {
    struct Timing {
        var tool: String
        var seconds: Double
    }

    let djpeg = Self.find("djpeg")
    let dwebp = Self.find("dwebp")
    let vipsthumbnail = Self.find("vipsthumbnail")
    /// Where vipsthumbnail writes its output (it has no /dev/null mode).
    let scratch: String

    var available: [String] {
        [djpeg, dwebp, vipsthumbnail].compactMap { $0?.split(separator: "/").last.map(String.init) }
    }

    /// The commands for `path` reduced to cover (or fit in) `spec`, from its stored size.
    func commands(path: String, facts: PhotoFacts, spec: CardSpec) -> [(String, [String])] {
        let fit = FitPlacement(imageWidth: facts.upright.width, imageHeight: facts.upright.height,
                               cardWidth: spec.width, cardHeight: spec.height, fit: spec.fit)
        var commands: [(String, [String])] = []
        if facts.format == "JPEG", let djpeg {
            // The smallest M/8 at or above the scale the card needs, as carouseld's DCT scaling picks.
            let eighths = min(8, max(1, Int((fit.scale * 8).rounded(.up))))
            commands.append((djpeg, ["-scale", "\(eighths)/8", "-outfile", "/dev/null", path]))
        }
        if facts.format == "WebP", let dwebp {
            let w = max(1, Int((Double(facts.width) * fit.scale).rounded(.up)))
            let h = max(1, Int((Double(facts.height) * fit.scale).rounded(.up)))
            commands.append((dwebp, ["-scale", "\(w)", "\(h)", "-ppm", "-quiet", "-o", "/dev/null", path]))
        }
        if let vipsthumbnail {
            var arguments = [path, "--size", "\(spec.width)x\(spec.height)", "-o", "\(scratch)/thumbnail.v"]
            if spec.fit == .cover { arguments += ["--smartcrop", "centre"] }
            commands.append((vipsthumbnail, arguments))
        }
        return commands
    }

    /// The fastest tool for `path` (best of `runs` each), or nil when none applies or all fail.
    func best(path: String, facts: PhotoFacts, spec: CardSpec, runs: Int) -> Timing? {
        var best: Timing?
        for (tool, arguments) in commands(path: path, facts: facts, spec: spec) {
            var fastest = Double.infinity
            for _ in 0..<runs {
                var status: Int32 = -1
                let seconds = Stopwatch.time { status = (try? ChildProcess.run(tool, arguments, quiet: true).status) ?? -1 }
                guard status == 0 else { fastest = .infinity; break }
                fastest = min(fastest, seconds)
            }
            let name = tool.split(separator: "/").last.map(String.init) ?? tool
            if fastest.isFinite, fastest < best?.seconds ?? .infinity { best = Timing(tool: name, seconds: fastest) }
        }
        return best
    }

    /// `name` in $PATH (posix_spawn needs the full path).
    private static func find(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
