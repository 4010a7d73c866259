@testable import CarouselBackends
@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
import XCTest
@testable import carouseld

final class WallClockSyncTests: XCTestCase {
    private func parse(_ text: String) -> ConfigFileParser.Result {
        ConfigFileParser.parse(bytes: Array(text.utf8), file: "/etc/carouseld/carouseld.conf")
    }

    func testSyncKeysAreReadFromStringsAndTOMLDateTimes() {
        let quoted = parse("sync = \"wallclock\"\nepoch = \"2026-01-01T06:30:00+01:00\"\nsync_resume = 12\n")
        XCTAssertEqual(quoted.problems, [])
        XCTAssertEqual(quoted.shell.sync.mode, .wallclock)
        XCTAssertEqual(quoted.shell.sync.epoch, 1_767_245_400)
        XCTAssertEqual(quoted.shell.sync.resume, 12)
        let native = parse("epoch = 2026-01-01T05:30:00Z\n")
        XCTAssertEqual(native.problems, [])
        XCTAssertEqual(native.shell.sync.epoch, 1_767_245_400)
        XCTAssertEqual(ShellSettings().sync.mode, .off)
        XCTAssertEqual(ShellSettings().sync.epoch, 946_684_800, "2000-01-01T00:00:00Z")
    }

    func testBadSyncKeysAreNamedWithTheirLine() {
        let result = parse("interval = 4\nsync = \"ntp\"\nepoch = \"tomorrow\"\nsync_resume = 0\n")
        XCTAssertEqual(result.problems.map(\.description), [
            "/etc/carouseld/carouseld.conf:2: sync: expected \"off\" or \"wallclock\", got string \"ntp\"",
            "/etc/carouseld/carouseld.conf:3: epoch: expected an RFC 3339 time such as \"2000-01-01T00:00:00Z\", got string \"tomorrow\"",
            "/etc/carouseld/carouseld.conf:4: sync_resume: 0.0 is out of range; allowed 1...86400",
        ])
    }

    private var images: [String] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/example/images").standardized.path
        return (1...5).map { "\(dir)/slide\($0).png" }
    }

    /// `render --now` twice, started 7.3 s apart: at the same wall-clock instant both show the
    /// same frame, as two synced boxes do; and the picture is the schedule's.
    func testTwoRendersStarted7Point3SecondsApartShowTheSameFrameAtTheSameInstant() throws {
        var config = CarouselConfig()
        config.interval = 4
        let start = 1_795_435_200.0   // a wall-clock time; the cycle counts from 2000-01-01
        let schedule = try XCTUnwrap(WallClockSchedule(epoch: 946_684_800, interval: 4, itemDurations: [], itemCount: 5))
        let first = try OfflineRenderer(config: config, paths: images, width: 320, height: 200,
                                        wallClock: (schedule, start))
        let second = try OfflineRenderer(config: config, paths: images, width: 320, height: 200,
                                         wallClock: (schedule, start + 7.3))
        for wall in [9.5, 14.0, 21.9] {   // at rest: between page changes
            let a = first.frame(at: wall), b = second.frame(at: wall - 7.3)
            XCTAssertEqual(first.engine.selectedIndex, schedule.slot(at: start + wall).index)
            XCTAssertEqual(second.engine.selectedIndex, first.engine.selectedIndex)
            XCTAssertFalse(first.engine.isMoving)
            var differing = 0
            for y in stride(from: 0, to: 200, by: 4) {
                for x in stride(from: 0, to: 320, by: 4) where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { differing += 1 }
            }
            XCTAssertEqual(differing, 0, "at \(wall) s")
        }
    }

    func testTheChangeStartsBeforeTheBoundaryAndRestsOnIt() throws {
        var config = CarouselConfig()
        config.interval = 4
        let schedule = try XCTUnwrap(WallClockSchedule(epoch: 0, interval: 4, itemDurations: [], itemCount: 5))
        let renderer = try OfflineRenderer(config: config, paths: images, width: 320, height: 200,
                                           wallClock: (schedule, 1.0))
        let lead = renderer.engine.pageSettleDuration
        _ = renderer.frame(at: 3.0 - lead - 0.05)
        XCTAssertFalse(renderer.engine.isMoving, "still resting just before the change starts")
        _ = renderer.frame(at: 3.0 - lead / 2)
        XCTAssertTrue(renderer.engine.isMoving, "moving towards the boundary at 4 s wall time")
        _ = renderer.frame(at: 3.0 + 1.0 / 30)
        XCTAssertFalse(renderer.engine.isMoving, "at rest on the boundary (within the 60 Hz step)")
        XCTAssertEqual(renderer.engine.selectedIndex, 1)
    }
}

/// The daemon's sync driver on a real event loop, with a wall clock the test sets.
final class WallClockDriverTests: XCTestCase {
    /// The loop's clock: the tests move it.
    private let time = ManualTime(1000)
    private var wall = 1000.0   // item 0 of 5 × 5 s from epoch 0
    /// Set: the clock is stepped to this right after its next read.
    private var stepAfterNextRead: Double?

    private func readWall() -> Double {
        defer { if let step = stepAfterNextRead { wall = step; stepAfterNextRead = nil } }
        return wall
    }

    private func makeGroup(loop: EventLoop) throws -> Carousel {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/example/images").standardized.path
        var config = CarouselConfig()
        config.interval = 5
        let items = (1...5).map { PlaylistItem(path: "\(dir)/slide\($0).png") }
        return try Carousel(plan: ScreenPlan.CarouselPlan(name: "", screens: [0], config: config), layout: .mirror,
                            outputs: [FakeOutput()], rotations: [0], content: .init(config: config, shell: ShellSettings(), items: items),
                            loop: loop, events: AppEvents(loop: loop), now: time.now())
    }

    private func shell(resume: Double) -> ShellSettings {
        var shell = ShellSettings()
        shell.sync.mode = .wallclock
        shell.sync.epoch = 0
        shell.sync.resume = resume
        return shell
    }

    func testATouchLeavesTheClockAndNoTouchForSyncResumeAnimatesBack() throws {
        let loop = try EventLoop(time: time)
        let group = try makeGroup(loop: loop)
        let sync = WallClockSync(carousel: group, shell: shell(resume: 0.3), clock: ClockTrust(mode: .always, loop: loop), loop: loop) { [unowned self] in wall }
        XCTAssertEqual(group.engine.selectedIndex, 0)
        XCTAssertTrue(group.engine.isPaused, "the clock pages, not the engine's countdown")
        sync.touched(now: time.now())
        group.updateEngine(cause: .ctl) { $0.page(by: 1, now: time.now()) }   // the finger's page
        wall = 1012   // the clock moved on to item 2 meanwhile
        XCTAssertTrue(sync.state(now: time.now()).hasPrefix("touched (resync in "))
        XCTAssertEqual(group.engine.selectedIndex, 1, "touched: the clock does not take over")
        let start = time.now()
        while sync.touchedAt != nil && time.now() - start < 3 {
            time.advance(by: 0.05)
            try loop.runOnce(timeoutMilliseconds: 0)
        }
        XCTAssertNil(sync.touchedAt, "back in sync after sync_resume")
        XCTAssertEqual(time.now() - start, 0.3, accuracy: 0.051, "at sync_resume, not later")
        XCTAssertEqual(group.engine.selectedIndex, 2)
        XCTAssertTrue(group.engine.isMoving, "it animates back to the clock's picture")
    }

    func testAClockSteppedBetweenTheReadAndTheArmIsNoticed() throws {
        let loop = try EventLoop(time: time)
        let group = try makeGroup(loop: loop)
        let sync = WallClockSync(carousel: group, shell: shell(resume: 30), clock: ClockTrust(mode: .always, loop: loop), loop: loop) { [unowned self] in readWall() }
        XCTAssertEqual(group.engine.selectedIndex, 0)
        stepAfterNextRead = 1017   // three pictures on, just after the driver reads the clock
        sync.configure(shell: shell(resume: 30))
        XCTAssertEqual(group.engine.selectedIndex, 3, "the step is seen by the read after the arm")
        XCTAssertFalse(group.engine.isMoving, "a cut, as for a step the kernel reports")
    }

    func testSyncWaitsForTheClockAndAlignsTheMomentItIsBelieved() throws {
        let loop = try EventLoop(time: time)
        let group = try makeGroup(loop: loop)
        var synchronised = false
        var following: WallClockSync?
        let clock = ClockTrust(mode: .synchronised, loop: loop, probe: { synchronised }, trusted: { following?.clockTrusted() })
        let sync = WallClockSync(carousel: group, shell: shell(resume: 30), clock: clock, loop: loop) { [unowned self] in wall }
        following = sync
        wall = 1017   // the clock's picture would be item 3
        XCTAssertFalse(group.engine.isPaused, "not synchronised: the engine pages by itself")
        XCTAssertEqual(group.engine.selectedIndex, 0)
        XCTAssertEqual(sync.state(now: time.now()), "waiting for the clock to be synchronised")
        XCTAssertFalse(sync.followsClock)
        synchronised = true
        clock.check()
        XCTAssertTrue(group.engine.isPaused, "believed: the clock pages")
        XCTAssertEqual(group.engine.selectedIndex, 3, "on the clock's picture at once")
        XCTAssertEqual(sync.state(now: time.now()), "synced")
    }

    func testASteppedClockCutsToItsPictureWhenFarAndAnimatesWhenOneAway() throws {
        let loop = try EventLoop(time: time)
        let group = try makeGroup(loop: loop)
        let sync = WallClockSync(carousel: group, shell: shell(resume: 30), clock: ClockTrust(mode: .always, loop: loop), loop: loop) { [unowned self] in wall }
        wall = 1017   // three pictures on
        sync.clockStepped()
        XCTAssertEqual(group.engine.selectedIndex, 3)
        XCTAssertFalse(group.engine.isMoving, "a cut")
        wall = 1012   // back one picture
        sync.clockStepped()
        XCTAssertEqual(group.engine.selectedIndex, 2)
        XCTAssertTrue(group.engine.isMoving, "one away: animated")
    }
}
