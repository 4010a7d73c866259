@testable import CarouselCore
import CarouselPixels
import Glibc
import XCTest
@testable import carouseld
import TestSupport

/// The start frame kept per screen: written once the carousel rests, final, on its first
/// picture; shown at the next start before any card is decoded; not shown when the picture
/// changed since.
final class KeptFrameAppTests: XCTestCase {
    static let (red, green, blue): (UInt32, UInt32, UInt32) = (0xD02020, 0x20A040, 0x2040D0)

    /// Turns the loop a frame of the clock at a time (flips complete, decodes are handed over)
    /// until `condition` holds, for at most 10 s of the clock.
    private func run(_ app: AppHarness, until what: String, _ condition: () -> Bool) throws {
        for _ in 0..<600 where !condition() {
            app.time.advance(by: 1.0 / 60)
            try app.turn(waitMilliseconds: 20)
        }
        XCTAssertTrue(condition(), "never: \(what)")
    }

    private func keptFiles(_ cache: ConfigTestDirectory) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: cache.url("frames"))) ?? []
    }

    /// A first start on an empty cache: the live start frame, once final, is kept.
    private func firstStart(_ cache: ConfigTestDirectory) throws -> ConfigTestDirectory {
        let app = try AppHarness(config: "interval = 60\n", pictures: [("a1.png", Self.red), ("a2.png", Self.green), ("a3.png", Self.blue)],
                                 cacheDirectory: cache.path)
        XCTAssertEqual(keptFiles(cache), [], "a cold start: nothing kept yet")
        app.start()
        try app.waitUntilOnScreen("the first picture", colour: Self.red)
        try run(app, until: "the start frame kept") { app.runner.carousels.lead.keeping.written == 1 }
        XCTAssertEqual(keptFiles(cache), ["fake.0.frame"], "one file for the one screen (the fake has no connector name)")
        return app.dir
    }

    func testAWarmStartShowsTheKeptFrameBeforeAnyDecodeAndTheLiveFrameEqualsIt() throws {
        let cache = try ConfigTestDirectory()
        let dir = try firstStart(cache)
        let app = try AppHarness(directory: dir, cacheDirectory: cache.path)
        XCTAssertEqual(app.screen.presents, 1, "committed as the carousel is made, before its stores are")
        app.start()   // no turn of the loop yet: no decode can have been handed over
        XCTAssertEqual(app.screen.presents, 1, "one frame committed at start")
        XCTAssertTrue(app.runner.carousels.lead.screens[0].showsKeptFrame, "the kept frame, committed before any decode")
        XCTAssertEqual(app.centreColour(), Self.red, "the kept frame: the first picture")
        let kept = (0..<400).flatMap { y in stride(from: 0, to: 640, by: 7).map { app.screen.pixel(x: $0, y: y) } }
        try run(app, until: "the live frame, final") { !app.runner.carousels.lead.screens[0].showsKeptFrame }
        let live = (0..<400).flatMap { y in stride(from: 0, to: 640, by: 7).map { app.screen.pixel(x: $0, y: y) } }
        XCTAssertEqual(live, kept, "the live start frame equals the kept one: no visible jump")
        XCTAssertEqual(app.runner.carousels.lead.keeping.written, 0, "a frame kept already is not written again")
    }

    func testAKeptFrameOfAPictureChangedSinceIsNotShown() throws {
        let cache = try ConfigTestDirectory()
        let dir = try firstStart(cache)
        try AppHarness.writePicture(Self.green, to: dir.url("images/a1.png"))
        let app = try AppHarness(directory: dir, cacheDirectory: cache.path)
        app.start()
        XCTAssertFalse(app.runner.carousels.lead.screens[0].showsKeptFrame, "the old picture's frame is not shown")
        XCTAssertNotEqual(app.centreColour(), Self.red, "the old picture is not shown")
        try app.waitUntilOnScreen("the new first picture", colour: Self.green)
        try run(app, until: "the new start frame kept") { app.runner.carousels.lead.keeping.written == 1 }
    }

    func testAKeptFrameOfAnotherConfigIsNotShown() throws {
        let cache = try ConfigTestDirectory()
        let dir = try firstStart(cache)
        try dir.write("carouseld.conf", "interval = 30\n")
        let app = try AppHarness(directory: dir, cacheDirectory: cache.path)
        app.start()
        XCTAssertFalse(app.runner.carousels.lead.screens[0].showsKeptFrame, "another config: the kept frame is not this one's")
    }

    func testWithAScreenScheduleTheKeptFrameWaitsForTheSchedule() throws {
        let cache = try ConfigTestDirectory()
        // Lit all day, in two windows: the schedule decides at start, so the kept frame waits.
        let lit = "interval = 60\n[[screen]]\non = \"00:00\"\noff = \"12:00\"\n[[screen]]\non = \"12:00\"\noff = \"00:00\"\n"
        let first = try AppHarness(config: lit, pictures: [("a1.png", Self.red), ("a2.png", Self.green)], cacheDirectory: cache.path)
        first.start()
        try first.waitUntilOnScreen("the first picture", colour: Self.red)
        try run(first, until: "the start frame kept") { first.runner.carousels.lead.keeping.written == 1 }
        let app = try AppHarness(directory: first.dir, cacheDirectory: cache.path)
        XCTAssertEqual(app.screen.presents, 0, "nothing committed before the schedule has decided")
        app.start()
        XCTAssertEqual(app.screen.presents, 1, "the kept frame, at start")
        XCTAssertTrue(app.runner.carousels.lead.screens[0].showsKeptFrame)
    }

    func testAConfigReloadedIsKeptUnderItsOwnBytes() throws {
        let cache = try ConfigTestDirectory()
        let dir = try firstStart(cache)
        let app = try AppHarness(directory: dir, cacheDirectory: cache.path)
        app.start()
        try run(app, until: "the live frame, final") { !app.runner.carousels.lead.screens[0].showsKeptFrame }
        // Another spacing: the same first picture, another start frame.
        try dir.write("carouseld.conf", "interval = 60\nspacing = 200\n")
        app.runner.reload.requestReload()
        try run(app, until: "the reloaded config's start frame kept") { app.runner.carousels.lead.keeping.written == 1 }
        let next = try AppHarness(directory: dir, cacheDirectory: cache.path)
        next.start()
        XCTAssertTrue(next.runner.carousels.lead.screens[0].showsKeptFrame, "the frame kept after the reload is the new config's")
    }
}
