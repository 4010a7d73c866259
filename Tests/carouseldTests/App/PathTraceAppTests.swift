@testable import CarouselCore
import CarouselEngine
import XCTest
@testable import carouseld

/// The run `scripts/trace-paths` records under lldb: the stack at each point where a frame is
/// committed, a touch reaches the engine, and a config edit is read, loaded and swapped in, for
/// the files each path passes and its turn backs (`scripts/structure-report` prints them). It
/// runs on the fake backend: the DRM and libinput code below the outputs and the input devices
/// is not in the trace. Each step is asserted here, so no path is traced that did not run.
final class PathTraceAppTests: XCTestCase {
    static let red: UInt32 = 0xD02020, green: UInt32 = 0x20C040, blue: UInt32 = 0x2040D0

    func testAFlipATouchAndAReload() throws {
        let app = try AppHarness(config: "interval = 60\n",
                                 pictures: [("a1.png", Self.red), ("a2.png", Self.green), ("a3.png", Self.blue)])
        app.start()
        try app.waitUntilOnScreen("the first picture", colour: Self.red)

        // A frame: a page change, each frame drawn when the flip before it completes.
        XCTAssertTrue(app.control(.next).ok)
        try app.advance(2)
        try app.waitUntilOnScreen("the second picture", colour: Self.green)

        // A touch: a drag back to the first picture reaches the engine.
        let t = app.time.now()
        app.backend.touch(.down, x: 200, at: t)
        for step in 1...10 { app.backend.touch(.move, x: 200 + Double(step) * 30, at: t + Double(step) / 60) }
        app.backend.touch(.up, x: 500, at: t + 11.0 / 60)
        try app.advance(2)
        XCTAssertEqual(app.engine.selectedIndex, 0, "the drag paged back")

        // A reload: the edit is read (inotify), loaded on the loader's thread, swapped in at
        // rest, and its frame committed.
        // At rest nothing is drawn: the frames counted from here are the reload's.
        XCTAssertFalse(app.engine.isMoving, "the drag's page change came to rest")
        let framesAtRest = app.runner.carousels.framesPresented
        try app.dir.write("carouseld.conf", "interval = 60\nbackground = \"#303030\"\n")
        try app.advance(1)
        try app.waitUntil("the swap") { app.engine.config.background == RGB(0x303030) }
        try app.advance(0.5)
        XCTAssertGreaterThan(app.runner.carousels.framesPresented, framesAtRest, "the reloaded look was shown")
    }
}
