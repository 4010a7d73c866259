import CarouselEngine
import XCTest
@testable import carouseld

/// Proof of play through the whole daemon (`AppHarness`): which moves end which showings, with
/// what cause, on the loop clock the test moves.
final class PlayLogAppTests: XCTestCase {
    private func app(_ config: String) throws -> AppHarness {
        let app = try AppHarness(config: config, pictures: [("a1.png", AppTests.red), ("a2.png", AppTests.green),
                                                           ("a3.png", AppTests.blue)])
        app.start()
        try app.waitUntilOnScreen("the first picture", colour: AppTests.red)
        return app
    }

    private func names(_ records: [PlayRecord]) -> [String] {
        records.map { String($0.item.split(separator: "/").last ?? "") }
    }

    func testTheCountdownEndsEachShowingAfterItsInterval() throws {
        let app = try app("interval = 4\n")
        try app.advance(15)
        XCTAssertEqual(names(app.plays), ["a1.png", "a2.png", "a3.png"])
        XCTAssertEqual(app.plays.map(\.cause), ["auto", "auto", "auto"])
        for play in app.plays {
            XCTAssertEqual(play.durationSeconds, 4, accuracy: 1.0 / 60, "rest to the countdown's move: the interval")
        }
        let gap = Double(app.plays[1].shownMicroseconds - app.plays[0].shownMicroseconds) / 1e6 - app.plays[0].durationSeconds
        XCTAssertEqual(gap, app.engine.pageSettleDuration, accuracy: 2.0 / 60, "between two showings: the page change")
        XCTAssertFalse(app.plays[0].output.isEmpty)
    }

    func testCtlNextEndsTheShowingAtTheRequestWithCauseCtl() throws {
        let app = try app("interval = 60\n")
        try app.advance(2)
        XCTAssertTrue(app.control(.next).ok)
        try app.advance(2)
        XCTAssertEqual(app.plays.count, 1)
        XCTAssertEqual(app.plays.first?.cause, "ctl")
        XCTAssertEqual(app.plays.first?.durationSeconds ?? 0, 2, accuracy: 1.0 / 60)
        XCTAssertTrue(app.control(.goto(.number(1))).ok)
        try app.advance(2)
        XCTAssertEqual(names(app.plays), ["a1.png", "a2.png"])
        XCTAssertEqual(app.plays.last?.cause, "ctl")
    }

    func testASwipeIsTouchAndADragLetGoIsNoShowingAtAll() throws {
        let app = try app("interval = 60\n")
        var t = app.time.now()
        app.backend.touch(.down, x: 320, at: t)
        app.backend.touch(.move, x: 300, at: t + 0.05)
        app.backend.touch(.up, x: 300, at: t + 0.5)
        try app.advance(2)
        XCTAssertEqual(app.engine.selectedIndex, 0, "a short drag springs back")
        XCTAssertTrue(app.plays.isEmpty, "the picture never left")
        t = app.time.now()
        app.backend.touch(.down, x: 500, at: t)
        for step in 1...5 { app.backend.touch(.move, x: 500 - 80 * Double(step), at: t + 0.016 * Double(step)) }
        app.backend.touch(.up, x: 100, at: t + 0.1)
        try app.advance(2)
        XCTAssertEqual(app.engine.selectedIndex, 1, "a fling pages")
        XCTAssertEqual(app.plays.map(\.cause), ["touch"])
    }

    func testDarkScreensEndTheShowingAndTheStopEndsTheLast() throws {
        let app = try app("interval = 60\n")
        try app.advance(3)
        XCTAssertTrue(app.control(.screen(.off)).ok)
        XCTAssertEqual(app.plays.map(\.cause), ["off"])
        XCTAssertEqual(app.plays.first?.durationSeconds ?? 0, 3, accuracy: 1.0 / 60)
        try app.advance(5)
        XCTAssertTrue(app.control(.screen(.on)).ok)
        try app.advance(2)
        app.runner.stop(reason: "test")
        XCTAssertEqual(app.plays.map(\.cause), ["off", "stop"])
        XCTAssertEqual(app.plays.last?.durationSeconds ?? 0, 2, accuracy: 2.0 / 60, "shown again from the moment the screen lit")
    }

    func testAReloadThatKeepsThePictureEndsNothingAndOneThatDropsItSaysReload() throws {
        let app = try app("interval = 60\n")
        try app.advance(1)
        try app.dir.write("carouseld.conf", "interval = 50\n")
        try app.advance(0.5)
        try app.waitUntil("the reload") { app.runner.publisher.generation == 2 }
        XCTAssertTrue(app.plays.isEmpty, "a1 is still on screen")
        try app.dir.write("playlist.m3u", "a2.png\na3.png\n")
        try app.advance(0.5)
        try app.waitUntil("the second reload") { app.runner.publisher.generation == 3 }
        XCTAssertEqual(names(app.plays), ["a1.png"])
        XCTAssertEqual(app.plays.first?.cause, "reload")
    }

    func testEachIndependentScreenHasItsOwnRecordsNamedByConnector() throws {
        let app = try AppHarness(config: "interval = 60\nlayout = \"independent\"\n",
                                 pictures: [("a1.png", AppTests.red), ("a2.png", AppTests.green)],
                                 connectors: ["Fake-1", "Fake-2"])
        app.start()
        try app.waitUntilOnScreen("both screens lit", colour: AppTests.red, screens: [0, 1])
        try app.advance(1)
        XCTAssertTrue(app.control(.next).ok)
        try app.advance(2)
        XCTAssertEqual(app.plays.map(\.output).sorted(), ["Fake-1", "Fake-2"])
        XCTAssertEqual(Set(app.plays.map(\.cause)), ["ctl"])
    }

    /// A fade or a cut is a page change like the slide: the countdown's picture is shown for
    /// its interval, from its rest to the change's start.
    func testAFadeAndACutEndTheShowingWhereTheChangeStarts() throws {
        for transition in ["fade", "cut"] {
            let app = try app("interval = 4\ntransition = \"\(transition)\"\n")
            try app.advance(10)
            XCTAssertEqual(names(app.plays), ["a1.png", "a2.png"], transition)
            XCTAssertEqual(app.plays.map(\.cause), ["auto", "auto"], transition)
            for play in app.plays { XCTAssertEqual(play.durationSeconds, 4, accuracy: 1.0 / 60, transition) }
        }
    }
}

