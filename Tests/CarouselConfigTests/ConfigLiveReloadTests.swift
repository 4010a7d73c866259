@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
import Glibc
import XCTest
import TestSupport

/// LiveConfig: inotify and SIGHUP end in the same reload, loaded off the loop and swapped in
/// once the strip rests.
final class ConfigLiveReloadTests: XCTestCase {
    /// The loop a load's result is handed to.
    private var loop: EventLoop!
    override func setUp() {
        Log.sink = { _, _ in }
        loop = try? EventLoop()
    }
    override func tearDown() { Log.sink = nil; loop = nil }

    /// Turns the loop until the background load that `reloadIfDue` started has handed its
    /// result over (its thread wakes the loop: no sleeping).
    /// Background loads that finished and told the loop (`LiveConfig`'s `loaded`).
    private var loads = 0

    private func makeLive(_ path: String) throws -> LiveConfig {
        try LiveConfig(directory: path, loop: loop, loaded: { [unowned self] in loads += 1 })
    }

    private func finishLoad(_ live: LiveConfig, file: StaticString = #filePath, line: UInt = #line) {
        let before = loads
        XCTAssertTrue(live.isLoading, "a load runs", file: file, line: line)
        for _ in 0..<100 where loads == before { _ = try? loop.runOnce(timeoutMilliseconds: 10_000) }
        XCTAssertEqual(loads, before + 1, "the load finished and told the loop", file: file, line: line)
        XCTAssertFalse(live.isLoading, file: file, line: line)
    }

    /// SIGHUP, then the whole flow at `now` with the strip at rest: the load started, finished,
    /// and swapped in (or refused).
    private func reloadAtRest(_ live: LiveConfig, _ target: EngineTarget, now: Double,
                              file: StaticString = #filePath, line: UInt = #line) -> ReloadController.Outcome? {
        live.requestReload()
        XCTAssertNil(target.reloadIfDue(live, now: now), "the load starts, off the loop", file: file, line: line)
        finishLoad(live, file: file, line: line)
        return target.reloadIfDue(live, now: now)
    }

    /// The daemon's part of step 5, on a bare engine.
    private final class EngineTarget {
        var engine: CarouselEngine
        private(set) var swaps: [LoadedConfig] = []
        init(_ live: LiveConfig) {
            engine = CarouselEngine(config: live.current.config, itemCount: live.current.playlist.count,
                                    viewport: Size(width: 800, height: 480), now: 0)
        }
        /// The daemon's side of the reload: due steps, then the swap of an applied config.
        func reloadIfDue(_ live: LiveConfig, now: Double) -> ReloadController.Outcome? {
            let outcome = live.reloadIfDue(now: now, isMoving: engine.isMoving, selectedIndex: engine.selectedIndex)
            if case .applied(let keepIndex) = outcome { swapIn(live.current, keepIndex: keepIndex, now: now) }
            return outcome
        }

        private func swapIn(_ loaded: LoadedConfig, keepIndex: Int?, now: Double) {
            swaps.append(loaded)
            engine.reconfigure(loaded.config, itemCount: loaded.playlist.count, itemDurations: loaded.itemDurations,
                               keepIndex: keepIndex, now: now)
        }
    }

    func testEditReloadsAfterDebounce() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg"])
        let live = try makeLive(dir.path)
        let target = EngineTarget(live)
        try dir.write("playlist.m3u", "b.jpg\n")
        live.handleReadable(now: 1)
        XCTAssertEqual(live.nextDeadline ?? 0, 1.2, accuracy: 1e-9)
        XCTAssertNil(target.reloadIfDue(live, now: 1.1))
        XCTAssertNil(target.reloadIfDue(live, now: 1.2), "the load starts, off the loop")
        XCTAssertNil(live.nextDeadline, "nothing to poll: the load's result wakes the loop")
        finishLoad(live)
        XCTAssertEqual(live.nextDeadline, 0, "a finished load is due at once")
        XCTAssertEqual(target.reloadIfDue(live, now: 1.3), .applied(keepIndex: nil))
        XCTAssertEqual(target.engine.itemCount, 1)
        XCTAssertNil(target.reloadIfDue(live, now: 5))
    }

    func testSighupReloadsWithoutAnyFileEvent() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"])
        let live = try makeLive(dir.path)
        let target = EngineTarget(live)
        XCTAssertNil(target.reloadIfDue(live, now: 1))
        live.requestReload()
        XCTAssertEqual(live.nextDeadline, 0, "due at once")
        XCTAssertNil(target.reloadIfDue(live, now: 1))
        finishLoad(live)
        XCTAssertEqual(target.reloadIfDue(live, now: 1), .unchanged)
        XCTAssertNil(live.nextDeadline)
    }

    func testReloadWaitsForTheStripToRest() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg", "c.jpg"])
        let live = try makeLive(dir.path)
        let target = EngineTarget(live)
        _ = target.engine.page(by: 1, now: 0) // the spring starts moving
        XCTAssertTrue(target.engine.isMoving)
        live.requestReload()
        try dir.write("carouseld.conf", "interval = 8\n")
        XCTAssertNil(target.reloadIfDue(live, now: 0.05), "the load starts while the strip moves")
        finishLoad(live)
        XCTAssertNil(target.reloadIfDue(live, now: 0.05), "held while moving")
        XCTAssertEqual(live.nextDeadline ?? 0, 0.05 + LiveConfig.retryInterval, accuracy: 1e-9,
                       "looks again a little later, not on every loop turn")
        var now = 0.05
        while target.engine.isMoving, now < 10 { now += 1.0 / 60; _ = target.engine.update(now: now) }
        XCTAssertFalse(target.engine.isMoving)
        XCTAssertEqual(target.reloadIfDue(live, now: now), .applied(keepIndex: 1))
        XCTAssertEqual(target.engine.config.interval, 8)
        XCTAssertEqual(target.engine.selectedIndex, 1, "the page the strip settled on stays")
    }

    func testValidReloadKeepsThePictureOnScreen() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        let live = try makeLive(dir.path)
        let target = EngineTarget(live)
        for _ in 0..<2 { _ = target.engine.page(by: 1, now: 0) }
        var now = 0.0
        while target.engine.isMoving, now < 10 { now += 1.0 / 60; _ = target.engine.update(now: now) }
        XCTAssertEqual(target.engine.selectedIndex, 2, "c.jpg on screen")
        try dir.write("carouseld.conf", "interval = 9\n")
        try dir.write("playlist.m3u", "d.jpg\n#EXTINF:7,C\nc.jpg\na.jpg\n")
        XCTAssertEqual(reloadAtRest(live, target, now: now), .applied(keepIndex: 1))
        XCTAssertEqual(target.engine.selectedIndex, 1)
        XCTAssertEqual(target.engine.itemCount, 3)
        XCTAssertEqual(target.engine.config.interval, 9)
        XCTAssertEqual(target.engine.itemDurations, [nil, 7, nil])
    }

    func testInvalidReloadSwapsNothing() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg"])
        let live = try makeLive(dir.path)
        let target = EngineTarget(live)
        try dir.write("carouseld.conf", "spacing = -4\n")
        guard case .rejected? = reloadAtRest(live, target, now: 1) else { return XCTFail("must be rejected") }
        XCTAssertEqual(target.swaps, [], "the target is not touched")
        XCTAssertEqual(target.engine.itemCount, 2)
    }

    func testMediaChangeMovesTheWatcher() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"])
        try dir.mkdir("photos")
        try dir.writeBytes("photos/p.png", ConfigTestDirectory.pngSignature)
        let live = try makeLive(dir.path)
        let target = EngineTarget(live)
        try dir.write("carouseld.conf", "media = \"photos\"\n")
        XCTAssertEqual(reloadAtRest(live, target, now: 1), .applied(keepIndex: nil))
        XCTAssertEqual(live.watchedMediaDirectory, dir.url("photos"))
        XCTAssertEqual(target.swaps.map(\.mediaDirectory), [dir.url("photos")])
    }
}
