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
    /// `pagingOnly`: no per-picture table (a directory of hundreds of files), only the paging figures.
    func report(directory: String, scratch: String, pagingOnly: Bool = false, print: (String) -> Void) throws -> Report {
        let paths = Self.paths(in: directory)
        var report = Report()
        let empty = scratch + "/empty", cache = scratch + "/cards"
        for made in [empty, cache] { mkdir(made, 0o700) }
        if pagingOnly {
            print("carouseld bench --photos \(directory) --paging-only: \(paths.count) pictures to a \(spec.width)x\(spec.height) card")
            let paging = try paging(directory: directory, files: paths.count, cacheDirectory: cache, emptyDirectory: empty)
            report.paging = paging
            Self.lines(paging).forEach(print)
            return report
        }
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
        let missed = report.rows.filter { !$0.meetsTargets }.map(\.name)
        print("\(report.rows.count - missed.count) of \(report.rows.count) pictures within both targets"
              + (missed.isEmpty ? "" : "; missed: " + missed.joined(separator: ", ")))
        let paging = try paging(directory: directory, files: paths.count, cacheDirectory: cache, emptyDirectory: empty)
        report.paging = paging
        Self.lines(paging).forEach(print)
        return report
    }
}
