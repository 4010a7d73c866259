import CarouselCore
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
        } else {
            report.rows = try table(paths, directory: directory, skipped: &report.skipped, print: print)
        }
        let paging = try paging(directory: directory, files: paths.count, cacheDirectory: cache, emptyDirectory: empty)
        report.paging = paging
        Self.lines(paging).forEach(print)
        return report
    }

    /// The per-picture table and its summary lines; the rows of the pictures carouseld shows.
    private func table(_ paths: [String], directory: String, skipped: inout [String],
                       print: (String) -> Void) throws -> [Row] {
        var rows: [Row] = []
        print("carouseld bench --photos \(directory): \(paths.count) pictures to a \(spec.width)x\(spec.height) card "
              + "(\(spec.fit.rawValue)); decode times best of \(max(1, runs)), tools: "
              + (tools.available.isEmpty ? "none installed" : tools.available.joined(separator: ", ")))
        print(Self.header)
        for path in paths {
            if let row = try row(path) {
                rows.append(row)
                print(Self.line(row))
            } else {
                skipped.append(path)
                print("\(path.split(separator: "/").last ?? ""): skipped (not a picture carouseld shows)")
            }
        }
        let ratios = rows.compactMap(\.ratio)
        if let worst = ratios.max() {
            print(formatted("carouseld / best tool: median %.2f, worst %.2f over %d pictures (target <= %.1f)",
                            ratios.sorted()[ratios.count / 2], worst, ratios.count, Self.ratioTarget))
        }
        let missed = rows.filter { !$0.meetsTargets }.map(\.name)
        print("\(rows.count - missed.count) of \(rows.count) pictures within both targets"
              + (missed.isEmpty ? "" : "; missed: " + missed.joined(separator: ", ")))
        return rows
    }
}
