@testable import CarouselCore
import CarouselEngine
import Glibc
import XCTest
@testable import carouseld
import TestSupport
import CoreTestSupport

/// The whole daemon on the host (`AppHarness`): wiring faults are caught here, not in the VM.
final class AppTests: XCTestCase {
    static let red: UInt32 = 0xD02020, green: UInt32 = 0x20C040, blue: UInt32 = 0x2040D0, yellow: UInt32 = 0xE0D020

    private func threePictures(config: String = "interval = 60\n") throws -> AppHarness {
        let app = try AppHarness(config: config, pictures: [("a1.png", Self.red), ("a2.png", Self.green), ("a3.png", Self.blue)])
        app.start()
        try app.waitUntilOnScreen("the first picture", colour: Self.red)
        return app
    }

    /// systemd's watchdog keeps being pinged while a finger rests on the panel (on the real
    /// kernel it starved: no ping in 13 s, and systemd restarted the daemon).
    func testTheWatchdogKeepsPingingWhileAFingerRests() throws {
        setenv("WATCHDOG_USEC", "2000000", 1)
        setenv("WATCHDOG_PID", String(getpid()), 1)
        defer { unsetenv("WATCHDOG_USEC"); unsetenv("WATCHDOG_PID") }
        let socket = try NotifySocket()
        let app = try threePictures()
        let t = app.time.now()
        app.backend.touch(.down, x: 320, at: t)
        app.backend.touch(.move, x: 300, at: t + 0.02)
        _ = socket.messages()
        try app.advance(0.05)
        var pings: [Int] = []
        for _ in 0..<15 {
            try app.advance(1)
            // Read as systemd does: a datagram socket's queue holds 10, and sd_notify then waits.
            pings.append(socket.messages().filter { $0 == "WATCHDOG=1" }.count)
        }
        XCTAssertTrue(app.engine.hasFingersDown, "the finger still rests")
        XCTAssertEqual(pings, Array(repeating: 1, count: 15), "a ping each second (half of WATCHDOG_USEC)")
    }

    /// A contact that never lifts (a phantom on a cheap panel) times out after `touch_timeout`:
    /// the strip settles, auto-advance resumes, and its later events are ignored until it lifts.
    func testAStuckTouchTimesOutAndAutoAdvanceResumes() throws {
        let app = try threePictures(config: "interval = 2\ntouch_timeout = 5\n")
        let t = app.time.now()
        let log = try capturingLog {
            app.backend.touch(.down, x: 320, at: t)
            app.backend.touch(.move, x: 310, at: t + 0.02)
            try app.advance(4.9)
            XCTAssertTrue(app.engine.hasFingersDown)
            XCTAssertEqual(app.engine.selectedIndex, 0, "no advance while touched")
            try app.advance(0.2)
        }
        let warnings = log.filter { $0.0 == .warning }.map(\.1)
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings.first?.contains("\"Fake Touchscreen\" slot 0: no event for 5 s") == true, "\(warnings)")
        XCTAssertFalse(app.engine.hasFingersDown, "the contact counts as lifted")
        app.backend.touch(.move, x: 100, at: app.time.now())
        XCTAssertFalse(app.engine.hasFingersDown, "a late event of the stuck contact is ignored")
        try app.advance(3)
        XCTAssertEqual(app.engine.selectedIndex, 1, "auto-advance resumed")
        app.backend.touch(.up, at: app.time.now())
        app.backend.touch(.down, at: app.time.now())
        XCTAssertTrue(app.engine.hasFingersDown, "once lifted, the slot counts again")
    }

    /// A picture copied in place, in 6 chunks 1.2 s apart, the writer closing the file after each
    /// (`cat >>`): a reload on the way reads it half-written and the card fails; each change
    /// makes it again, and once complete it shows when paged to, with no reload by hand.
    func testAPictureCopiedInPlaceShowsOnceComplete() throws {
        let app = try threePictures()
        let bytes = try AppHarness.picturePNG(Self.yellow)
        let path = app.dir.url("images/a4.png")
        let chunk = (bytes.count + 5) / 6
        let group = app.runner.carousels.lead
        var failures = 0
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            XCTAssertGreaterThanOrEqual(fd, 0)
            let part = Array(bytes[start..<min(bytes.count, start + chunk)])
            XCTAssertEqual(part.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }, part.count)
            close(fd)
            try app.advance(1.2)
            try app.waitUntil("the reload") { app.runner.live.isIdle }
            // The decode the reload started (or a retry's) has ended: made, or failed.
            for store in group.allStores { store.waitUntilLoaded(indices: [3]) }
            let failed = app.control(.status).status?.showing.failed ?? []
            if failed.contains(where: { $0.hasPrefix("a4.png: truncated") }) { failures += 1 }
        }
        XCTAssertEqual(group.items.count, 4)
        XCTAssertEqual(failures, 5, "each reload on the way read the file half-written, and ctl status named it")
        XCTAssertEqual(group.failedCards, [], "the complete file was made")
        XCTAssertEqual(app.control(.goto(.number(4))).showing, "showing 4/4 a4.png")
        try app.advance(1.5)
        try app.waitUntil("a4.png on screen") { app.centreColour() == Self.yellow }
        XCTAssertNil(app.control(.status).status?.showing.failed)
    }

    /// The same copy through one open descriptor (cp, dd): the reload waits for the close, so
    /// the half-written file is never read.
    func testAPictureWrittenThroughOneDescriptorIsReadOnceComplete() throws {
        let app = try threePictures()
        let bytes = try AppHarness.picturePNG(Self.yellow)
        let fd = open(app.dir.url("images/a4.png"), O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        let chunk = (bytes.count + 5) / 6
        let log = try capturingLog {
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                let part = Array(bytes[start..<min(bytes.count, start + chunk)])
                XCTAssertEqual(part.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }, part.count)
                try app.advance(1.2)
                XCTAssertEqual(app.runner.carousels.lead.items.count, 3, "no reload while the file is open")
            }
            close(fd)
            try app.advance(0.5)
            try app.waitUntil("the reload") { app.runner.carousels.lead.items.count == 4 }
        }
        XCTAssertFalse(log.contains { $0.1.contains("a4.png") && $0.0 == .warning }, "\(log)")
        _ = app.control(.goto(.number(4)))
        try app.advance(1.5)
        try app.waitUntil("a4.png on screen") { app.centreColour() == Self.yellow }
    }

    /// The status line has one writer: after a reload it still names every carousel (the
    /// reload used to overwrite it with the first playlist's text alone).
    func testTheStatusLineKeepsEveryCarouselAfterAReload() throws {
        let socket = try NotifySocket()
        let config = "interval = 60\nlayout = \"independent\"\n"
        let app = try AppHarness(config: config, pictures: [("a1.png", Self.red), ("a2.png", Self.green)],
                                 connectors: ["Fake-1", "Fake-2"])
        app.start()
        try app.waitUntilOnScreen("both screens lit", colour: Self.red, screens: [0, 1])
        _ = socket.messages()
        try app.dir.write("carouseld.conf", config + "spacing = 30\n")
        try app.advance(0.5)
        try app.waitUntil("the reload") { app.runner.publisher.generation == 2 }
        let statuses = socket.messages().filter { $0.hasPrefix("STATUS=") }
        XCTAssertEqual(statuses.last, "STATUS=Fake-1: showing 1/2 a1.png; Fake-2: showing 1/2 a1.png", "\(statuses)")
    }

    /// A reload that lands while a finger is down waits for the strip to rest, then swaps.
    func testAReloadWaitsForTheFingerToLift() throws {
        let app = try threePictures()
        let t = app.time.now()
        app.backend.touch(.down, x: 320, at: t)
        app.backend.touch(.move, x: 250, at: t + 0.05)
        try app.dir.write("carouseld.conf", "interval = 7\n")
        try app.advance(1)
        try app.waitUntil("the load") { app.runner.live.nextDeadline != nil }
        try app.advance(1)
        XCTAssertEqual(app.engine.config.interval, 60, "no swap under the finger")
        app.backend.touch(.up, at: app.time.now())
        try app.advance(2)
        try app.waitUntil("the swap") { app.engine.config.interval == 7 }
        XCTAssertEqual(app.engine.selectedIndex, 0, "the picture on screen stays")
    }

    /// A screen that goes away and comes back is drawn again, and the watchdog never stops.
    func testAScreenThatVanishesAndReturnsIsDrawnAgain() throws {
        let app = try threePictures()
        app.screen.changeScreen(to: nil)
        try app.advance(1)
        let presents = app.screen.presents
        app.screen.changeScreen(to: Size(width: 640, height: 400))
        try app.advance(0.5)
        XCTAssertGreaterThan(app.screen.presents, presents)
        XCTAssertEqual(app.centreColour(), Self.red)
    }
}
