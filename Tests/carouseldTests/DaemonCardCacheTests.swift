@testable import CarouselConfig
@testable import CarouselCore
import Foundation
import XCTest
@testable import carouseld

/// Where the daemon's card cache lives (issue 44): `--cache-dir`, `cache_dir`, systemd's
/// CacheDirectory=; a directory that cannot be written (a read-only root) falls back to the
/// runtime directory in /run, said once, and the metrics say so.
final class DaemonCardCacheTests: XCTestCase {
    private var dir = ""
    private var logged: [String] = []

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "carouseld-cachedir-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir + "/run", withIntermediateDirectories: true)
        addTeardownBlock { [dir] in try? FileManager.default.removeItem(atPath: dir) }
        // A regular file: no directory can be made under it, even by root (a read-only root's stand-in).
        FileManager.default.createFile(atPath: dir + "/readonly", contents: Data())
        logged = []
        Log.sink = { [unowned self] _, line in logged.append(line) }
    }

    override func tearDown() { Log.sink = nil }

    private func environment(_ values: [String: String]) -> (String) -> String? { { values[$0] } }

    func testSystemdsCacheDirectoryWhenWritable() throws {
        let opened = DaemonCardCache.open(commandLine: nil, shell: ShellSettings(),
                                          environment: environment(["CACHE_DIRECTORY": dir + "/cache", "RUNTIME_DIRECTORY": dir + "/run"]))
        XCTAssertEqual(opened.cache?.directory, dir + "/cache")
        XCTAssertEqual(opened.fallback, false)
        XCTAssertEqual(logged, [])
    }

    func testCacheDirInTheConfigComesBeforeSystemdsAndAfterTheCommandLine() throws {
        var shell = ShellSettings()
        shell.media.cacheDirectory = dir + "/data"
        let env = environment(["CACHE_DIRECTORY": dir + "/cache"])
        XCTAssertEqual(DaemonCardCache.open(commandLine: nil, shell: shell, environment: env).cache?.directory, dir + "/data")
        XCTAssertEqual(DaemonCardCache.open(commandLine: dir + "/cli", shell: shell, environment: env).cache?.directory, dir + "/cli")
        shell.media.cacheDirectory = "relative"
        XCTAssertEqual(shell.validate().map(\.key), ["cache_dir"])
    }

    func testAnUnwritableDirectoryFallsBackToRunOnceSaid() throws {
        let opened = DaemonCardCache.open(commandLine: nil, shell: ShellSettings(),
                                          environment: environment(["CACHE_DIRECTORY": dir + "/readonly/cache", "RUNTIME_DIRECTORY": dir + "/run"]))
        XCTAssertEqual(opened.cache?.directory, dir + "/run/cache")
        XCTAssertEqual(opened.fallback, true)
        XCTAssertEqual(logged.count, 1, "\(logged)")
        XCTAssertTrue(logged[0].contains("card cache: \(dir)/readonly/cache: "), logged[0])
        XCTAssertTrue(logged[0].contains("using \(dir)/run/cache instead"), logged[0])
        // In RAM: never more than a quarter of what /run has free, whatever disk_cache_mb says.
        let cache = try XCTUnwrap(opened.cache)
        XCTAssertLessThan(cache.ceilingMegabytes, Int.max)
        cache.setLimit(megabytes: 1_048_576)
        XCTAssertLessThanOrEqual(cache.state.withLock { $0.limitBytes }, cache.ceilingMegabytes * 1_048_576)
    }

    func testNoWritablePlaceAtAllIsOffWithOneWarning() {
        let opened = DaemonCardCache.open(commandLine: nil, shell: ShellSettings(),
                                          environment: environment(["CACHE_DIRECTORY": dir + "/readonly/a", "RUNTIME_DIRECTORY": dir + "/readonly/b"]))
        XCTAssertNil(opened.cache)
        XCTAssertNil(opened.fallback)
        XCTAssertEqual(logged.count, 1, "\(logged)")
        XCTAssertTrue(logged[0].contains("the card cache is off"), logged[0])
    }

    func testTheMetricsSayTheFallback() {
        func samples(_ fallback: Bool?) -> [String] {
            let status = DaemonStatus(showing: .init(index: 1, count: 2, playlist: "p", outputs: [.init(output: "", index: 1, count: 2, interval: 20)]),
                                      display: .init(screen: "off", screenReason: "ctl", screenScheduled: "on", paused: false),
                                      process: .init(generation: 1, configError: nil, uptime: 1, frames: 1))
            let text = MetricsText.render(MetricsSnapshot(status: status, decodeFailures: 0, lastPageChange: nil, clockSynchronised: true,
                                                          longestLoopGap: 0, residentBytes: nil, cacheFallback: fallback))
            return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        }
        XCTAssertTrue(samples(true).contains("carouseld_cache_fallback 1"))
        XCTAssertTrue(samples(false).contains("carouseld_cache_fallback 0"))
        XCTAssertFalse(samples(nil).contains { $0.hasPrefix("carouseld_cache_fallback") }, "no cache, no series")
        // What the alert rules join on: the schedule's word beside the screen's, and the interval.
        XCTAssertTrue(samples(nil).contains("carouseld_screen_scheduled_on 1"))
        XCTAssertTrue(samples(nil).contains("carouseld_screen_on 0"))
        XCTAssertTrue(samples(nil).contains("carouseld_page_interval_seconds{output=\"default\"} 20"))
    }
}
