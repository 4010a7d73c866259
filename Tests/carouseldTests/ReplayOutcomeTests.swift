@testable import CarouselBackends
@testable import CarouselConfig
@testable import CarouselCore
import XCTest
import CarouselEngine
@testable import carouseld
import CoreTestSupport

/// `carouseld replay` on recordings the tests write themselves, through the command's own code
/// path (`Replay.lines(path:)`): what the strip does after each kind of gesture.
///
/// Screen 1000x600, cards 60 % wide (600 px) with 32 px spacing: one page is 632 px, the right
/// neighbour shows from x = 877 (scaled 0.85 about its centre). Five pictures; no auto-advance.
final class ReplayOutcomeTests: XCTestCase {
    private let screen = Size(width: 1000, height: 600)
    private var config: CarouselConfig = {
        var c = CarouselConfig()
        c.cardWidth = .fraction(0.6)
        c.interval = 0
        return c
    }()

    private typealias Line = [String: Any]

    private func replay(_ b: RecordingBuilder, frames: Replay.FrameSink? = nil) throws -> [Line] {
        let path = try b.write(named: name.filter { $0.isLetter })
        let lines = try Replay(config: config, screen: screen, itemCount: 5).lines(path: path, frames: frames)
        return try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? Line, $0) }
    }

    private func events(_ lines: [Line], _ kind: String) -> [Line] { lines.filter { $0["event"] as? String == kind } }
    private func lastSettled(_ lines: [Line]) -> Int? { events(lines, "settled").last?["index"] as? Int }

    func testSlowDragPastHalfAPagePages() throws {
        var b = RecordingBuilder()
        // 600 px to the left in 3 s (200 px/s, under the 400 px/s fling speed), then held still.
        b.drag(from: (80, 50), to: (20, 50), start: 0.5, duration: 3, rest: 0.1)
        let lines = try replay(b)
        let releases = events(lines, "release")
        XCTAssertEqual(releases.count, 1, "\(lines)")
        XCTAssertEqual(releases.first?["from"] as? Int, 0)
        XCTAssertEqual(releases.first?["to"] as? Int, 1)
        XCTAssertLessThan(abs(releases.first?["velocity_x"] as? Double ?? 1e9), config.gesture.flingVelocity)
        XCTAssertEqual(releases.first?["t"] as? Double ?? 0, 3.6, accuracy: 1e-6, "the recording's own timestamps")
        XCTAssertEqual(lastSettled(lines), 1)
    }

    func testShortFastFlingPages() throws {
        var b = RecordingBuilder()
        // 100 px (a sixth of a page) in 50 ms: 2000 px/s.
        b.drag(from: (60, 50), to: (50, 50), start: 0.2, duration: 0.05, interval: 0.01)
        let lines = try replay(b)
        let release = try XCTUnwrap(events(lines, "release").first, "\(lines)")
        XCTAssertEqual(release["to"] as? Int, 1)
        XCTAssertLessThanOrEqual(release["velocity_x"] as? Double ?? 0, -config.gesture.flingVelocity)
        XCTAssertEqual(lastSettled(lines), 1)

        var right = RecordingBuilder()
        right.drag(from: (50, 50), to: (60, 50), start: 0.2, duration: 0.05, interval: 0.01)
        let back = try replay(right)
        XCTAssertEqual(events(back, "release").first?["to"] as? Int, 4, "a fling to the right loops to the last picture")
        XCTAssertEqual(lastSettled(back), 4)
    }

    func testSlowDragUnderTheThresholdSpringsBack() throws {
        var b = RecordingBuilder()
        // 250 px of a 632 px page, slowly.
        b.drag(from: (60, 50), to: (35, 50), start: 0.3, duration: 2, rest: 0.1)
        let lines = try replay(b)
        let release = try XCTUnwrap(events(lines, "release").first, "\(lines)")
        XCTAssertEqual(release["from"] as? Int, 0)
        XCTAssertEqual(release["to"] as? Int, 0)
        XCTAssertEqual(lastSettled(lines), 0)
        XCTAssertGreaterThan(events(lines, "settled").last?["t"] as? Double ?? 0, 2.4, "settles after the spring ran")
    }

    func testTapOnTheRightCardPagesToIt() throws {
        var b = RecordingBuilder()
        b.down(x: 94, y: 50, at: 0.4)
        b.up(at: 0.48)
        let lines = try replay(b)
        XCTAssertEqual(events(lines, "tap").first?["index"] as? Int, 1, "\(lines)")
        XCTAssertEqual(events(lines, "release").count, 0)
        XCTAssertEqual(lastSettled(lines), 1)

        var centre = RecordingBuilder()
        centre.down(x: 50, y: 50, at: 0.4)
        centre.up(at: 0.48)
        let still = try replay(centre)
        XCTAssertEqual(events(still, "tap").count, 0)
        XCTAssertEqual(events(still, "activated").first?["index"] as? Int, 0, "\(still)")
        XCTAssertNil(lastSettled(still), "nothing moved, so nothing settles")
    }

    func testAFlingNeverMovesMoreThanMaxPagesPerGesture() throws {
        var b = RecordingBuilder()
        // 900 px (1.4 pages) in 60 ms: dragged past page 1 and still flinging, so page 2 is due.
        b.drag(from: (95, 50), to: (5, 50), start: 0.2, duration: 0.06, interval: 0.01)
        let capped = try replay(b)
        XCTAssertEqual(events(capped, "release").first?["to"] as? Int, 1, "\(capped)")
        XCTAssertEqual(lastSettled(capped), 1)

        config.gesture.maxPagesPerGesture = 2
        let uncapped = try replay(b)
        XCTAssertEqual(events(uncapped, "release").first?["to"] as? Int, 2)
        XCTAssertEqual(lastSettled(uncapped), 2)
    }

    func testTwoFingersMoveTheStripByTheFirstFingerOnly() throws {
        var b = RecordingBuilder()
        // Finger 0 drags 600 px left in 3 s; finger 1 lands just after and drags 800 px right, faster.
        b.down(0, x: 80, y: 50, at: 0.5)
        b.down(1, x: 10, y: 60, at: 0.51)
        for i in 1...300 {
            let f = Double(i) / 300, t = 0.51 + 3 * f
            var changes: [(slot: Int, change: RecordingBuilder.Change)] = [(0, .move(x: 80 - 60 * f, y: 50))]
            if i <= 150 { changes.append((1, .move(x: 10 + 80 * Double(i) / 150, y: 60))) }
            b.frame(at: t, changes)
            if i == 150 { b.up(1, at: t + 0.001) }
        }
        b.up(0, at: 3.61)
        var cardZeroX: [(t: Double, x: Double)] = []
        let lines = try replay(b) { _, t, layout in
            if let c = layout.cards.first(where: { $0.index == 0 }) { cardZeroX.append((t, c.x)) }
        }
        let releases = events(lines, "release")
        XCTAssertEqual(releases.count, 1, "only the driving finger's lift is a release: \(lines)")
        XCTAssertEqual(releases.first?["to"] as? Int, 1)
        XCTAssertEqual(lastSettled(lines), 1)
        // Halfway, finger 0 has moved 300 px left: so has the strip (card 0 rests at x = 200).
        let mid = try XCTUnwrap(cardZeroX.first { $0.t >= 2.01 })
        XCTAssertEqual(mid.x, 200 - 300, accuracy: config.gesture.touchSlop + 2)
    }

    func testRotatedPanelSwipeDownIsASwipeLeft() throws {
        var shell = ShellSettings()
        shell.rotation = 90
        let portrait = Size(width: 600, height: 1000)  // the picture; the panel is 1000x600
        var b = RecordingBuilder()
        // Down the panel, slowly: towards the turned picture's left, 600 px of a 392 px page.
        b.drag(from: (50, 10), to: (50, 90), start: 0.5, duration: 3, rest: 0.1)
        let path = try b.write(named: "rotated")
        let lines = try Replay(config: config, shell: shell, screen: portrait, itemCount: 5).lines(path: path)
        XCTAssert(lines.contains { $0.contains("\"event\":\"release\"") && $0.contains("\"to\":1") }, "\(lines)")
    }

    func testRecordingEndingMidDragSpringsBack() throws {
        var b = RecordingBuilder()
        b.down(x: 80, y: 50, at: 0.2)
        for i in 1...40 { b.move(x: 80 - Double(i), y: 50, at: 0.2 + 0.01 * Double(i)) }  // 400 px, fast, never lifted
        let lines = try replay(b)
        XCTAssertEqual(events(lines, "release").count, 0, "\(lines)")
        XCTAssertEqual(lastSettled(lines), 0)
    }

    func testOutputIsOneSortedJsonObjectPerLine() throws {
        var b = RecordingBuilder()
        b.drag(from: (60, 50), to: (50, 50), start: 0.2, duration: 0.05, interval: 0.01)
        let path = try b.write(named: "json")
        let lines = try Replay(config: config, screen: screen, itemCount: 5).lines(path: path)
        XCTAssertEqual(lines.count, 2, "\(lines)")
        XCTAssert(lines[0].hasPrefix("{\"event\":\"release\",\"from\":0,\"t\":0.25,\"to\":1,\"velocity_x\":-"), lines[0])
        XCTAssert(lines[1].hasPrefix("{\"event\":\"settled\",\"index\":1,\"t\":"), lines[1])
        XCTAssertEqual(try Replay(config: config, screen: screen, itemCount: 5).lines(path: path), lines, "deterministic")
    }
}
