import CarouselEngine
import Glibc
import XCTest
@testable import carouseld

/// LiveConfig: inotify and SIGHUP end in the same reload, loaded off the loop and swapped in
/// once the strip rests.
final class ConfigLiveReloadTests: XCTestCase {
    override func setUp() { Log.sink = { _, _ in } }
    override func tearDown() { Log.sink = nil }

    /// Waits for the background load that `reloadIfDue` started, as the loop's eventfd would.
    private func finishLoad(_ live: LiveConfig, file: StaticString = #filePath, line: UInt = #line) {
        var p = pollfd(fd: live.loadFD, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&p, 1, 10_000), 1, "the load finished and signalled its eventfd", file: file, line: line)
        live.handleLoaded()
    }

    private func engine(_ live: LiveConfig) -> CarouselEngine {
        CarouselEngine(config: live.current.config, itemCount: live.current.playlist.count,
                       viewport: Size(width: 800, height: 480), now: 0)
    }

    func testEditReloadsAfterDebounce() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg"])
        let live = try LiveConfig(directory: dir.path)
        var engine = engine(live)
        try dir.write("playlist.m3u", "b.jpg\n")
        live.handleReadable(now: 1)
        XCTAssertEqual(live.nextDeadline ?? 0, 1.2, accuracy: 1e-9)
        XCTAssertNil(live.reloadIfDue(engine: &engine, now: 1.1))
        XCTAssertNil(live.reloadIfDue(engine: &engine, now: 1.2), "the load starts, off the loop")
        XCTAssertNil(live.nextDeadline, "nothing to poll: the load's eventfd wakes the loop")
        finishLoad(live)
        XCTAssertEqual(live.nextDeadline, 0, "a finished load is due at once")
        XCTAssertEqual(live.reloadIfDue(engine: &engine, now: 1.3), .applied(keepIndex: nil))
        XCTAssertEqual(engine.itemCount, 1)
        XCTAssertNil(live.reloadIfDue(engine: &engine, now: 5))
    }

    func testSighupReloadsWithoutAnyFileEvent() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"])
        let live = try LiveConfig(directory: dir.path)
        var engine = engine(live)
        XCTAssertNil(live.reloadIfDue(engine: &engine, now: 1))
        live.requestReload()
        XCTAssertEqual(live.nextDeadline, 0, "due at once")
        XCTAssertNil(live.reloadIfDue(engine: &engine, now: 1))
        finishLoad(live)
        XCTAssertEqual(live.reloadIfDue(engine: &engine, now: 1), .unchanged)
        XCTAssertNil(live.nextDeadline)
    }

    func testReloadWaitsForTheStripToRest() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg", "c.jpg"])
        let live = try LiveConfig(directory: dir.path)
        var engine = engine(live)
        _ = engine.page(by: 1, now: 0) // the spring starts moving
        XCTAssertTrue(engine.isMoving)
        live.requestReload()
        try dir.write("carouseld.conf", "interval = 8\n")
        XCTAssertNil(live.reloadIfDue(engine: &engine, now: 0.05), "the load starts while the strip moves")
        finishLoad(live)
        XCTAssertNil(live.reloadIfDue(engine: &engine, now: 0.05), "held while moving")
        XCTAssertEqual(live.nextDeadline ?? 0, 0.05 + LiveConfig.retryInterval, accuracy: 1e-9,
                       "looks again a little later, not on every loop turn")
        var now = 0.05
        while engine.isMoving, now < 10 { now += 1.0 / 60; _ = engine.update(now: now) }
        XCTAssertFalse(engine.isMoving)
        XCTAssertEqual(live.reloadIfDue(engine: &engine, now: now), .applied(keepIndex: 1))
        XCTAssertEqual(engine.config.interval, 8)
        XCTAssertEqual(engine.selectedIndex, 1, "the page the strip settled on stays")
    }
}
