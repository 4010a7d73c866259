import FoundationEssentials
import Glibc

/// The whole `bench --photos DIR` run, printed as it goes: the table, one row per picture,
/// then the paging figures. Returns the rows and paging figures for tests.
extension PhotoBench {
    struct Report {
        var rows: [Row] = []
        var skipped: [String] = []
        var paging: Paging?
    }

    /// `scratch`: a private temporary directory (the card cache, the tools' output), emptied by the caller.
    func report(directory: String, scratch: String, print: (String) -> Void) throws -> Report {
        let paths = Self.paths(in: directory)
        var report = Report()
        print("carouseld bench --photos \(directory): \(paths.count) pictures to a \(spec.width)x\(spec.height) card "
              + "(\(spec.fit.rawValue)); decode times best of \(max(1, runs)), tools: "
              + (tools.available.isEmpty ? "none installed" : tools.available.joined(separator: ", ")))
        print(Self.header)
        for path in paths {
            if let row = try row(path) {
                report.rows.append(row)
                print(Self.line(row))
            } else {
                report.skipped.append(path)
                print("\(path.split(separator: "/").last ?? ""): skipped (not a picture carouseld shows)")
            }
        }
        let ratios = report.rows.compactMap(\.ratio)
        if let worst = ratios.max() {
            print(formatted("carouseld / best tool: median %.2f, worst %.2f over %d pictures (target <= 1.5)",
                            ratios.sorted()[ratios.count / 2], worst, ratios.count))
        }
        let empty = scratch + "/empty", cache = scratch + "/cards"
        for made in [empty, cache] { mkdir(made, 0o700) }
        let paging = try paging(directory: directory, files: paths.count, cacheDirectory: cache, emptyDirectory: empty)
        report.paging = paging
        Self.lines(paging).forEach(print)
        return report
    }
}
