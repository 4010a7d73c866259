@testable import CarouselConfig
@testable import CarouselCore
import Glibc
import XCTest
@testable import carouseld
import TestSupport

/// Schedules read in a fixed zone from tzdata, whatever the machine's own.
class LocalZoneTestCase: XCTestCase {
    private var savedTZ: String?

    override func setUp() {
        savedTZ = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", "Europe/Berlin", 1)
        tzset()
    }

    override func tearDown() {
        if let savedTZ { setenv("TZ", savedTZ, 1) } else { unsetenv("TZ") }
        tzset()
    }
}

final class ScreenPowerTests: LocalZoneTestCase {
    // Europe/Berlin, from tzdata.
    let saturday2230 = 1_774_733_400.0      // 2026-03-28 22:30 CET, the night clocks go forward
    let sunday0730 = 1_774_762_200.0        // 2026-03-29 07:30 CEST
    let monday1200 = 1_795_431_600.0        // 2026-11-23 12:00 CET

    private func daily(_ on: String, _ off: String, days: Set<Int> = Set(0..<7)) -> WeeklyWindow {
        WeeklyWindow(days: days, start: Weekdays.minute(on) ?? -1, end: Weekdays.minute(off) ?? -1)
    }

    func testAWindowAcrossMidnightBelongsToTheDayItStarts() {
        let friday = 5, saturday = 6
        let night = daily("22:00", "06:00", days: [friday])
        XCTAssertTrue(night.contains(LocalTime(weekday: friday, minute: 22 * 60)))
        XCTAssertTrue(night.contains(LocalTime(weekday: saturday, minute: 5 * 60 + 59)))
        XCTAssertFalse(night.contains(LocalTime(weekday: saturday, minute: 6 * 60)))
        XCTAssertFalse(night.contains(LocalTime(weekday: friday, minute: 21 * 60 + 59)))
        XCTAssertFalse(night.contains(LocalTime(weekday: friday, minute: 3 * 60)), "thursday night is not listed")
    }

    func testTheScheduleTurnsTheScreenOffAtNightAndOnAcrossADSTChange() {
        let power = ScreenPower(schedule: [daily("07:30", "22:00")])
        XCTAssertTrue(power.isOn(at: monday1200))
        XCTAssertFalse(power.isOn(at: saturday2230))
        XCTAssertEqual(power.state(at: saturday2230).reason, "scheduled")
        // The night the clocks go forward is an hour shorter: on at 07:30 local, 05:30 UTC.
        XCTAssertEqual(power.nextChange(after: saturday2230), sunday0730)
        XCTAssertTrue(power.isOn(at: sunday0730))
    }

    func testAWindowStartingInTheSkippedHourStartsWhenTheClockShowsIt() {
        // 02:30 does not exist on 2026-03-29 in Berlin: the first local minute at or after it is 03:00.
        let power = ScreenPower(schedule: [daily("02:30", "04:00", days: [0])])
        XCTAssertEqual(power.nextChange(after: saturday2230), 1_774_746_000)   // 03:00 CEST
    }

    func testNoScheduleMeansAlwaysOn() {
        let power = ScreenPower()
        XCTAssertEqual(power.state(at: saturday2230).on, true)
        XCTAssertEqual(power.state(at: saturday2230).reason, "always")
        XCTAssertNil(power.nextChange(after: saturday2230))
    }

    func testCtlOverridesUntilTheNextScheduledChangeAndAutoGoesBack() {
        var power = ScreenPower(schedule: [daily("07:30", "22:00")])
        power.set(.on, at: saturday2230)
        XCTAssertEqual(power.state(at: saturday2230 + 3600).on, true)
        XCTAssertEqual(power.state(at: saturday2230 + 3600).reason, "ctl")
        XCTAssertEqual(power.nextChange(after: saturday2230), sunday0730, "on until the schedule turns it on anyway")
        power.set(.off, at: monday1200)
        XCTAssertFalse(power.isOn(at: monday1200 + 60))
        XCTAssertEqual(power.state(at: monday1200 + 11 * 3600).reason, "scheduled", "the override ends at 22:00, the next change")
        XCTAssertTrue(power.isOn(at: monday1200 + 20 * 3600), "08:00 on tuesday: on as scheduled")
        power.set(.auto, at: monday1200)
        XCTAssertTrue(power.isOn(at: monday1200 + 60))
    }

    func testATouchWakesADarkScreenForWakeMinutes() {
        var power = ScreenPower(schedule: [daily("07:30", "22:00")], wakeMinutes: 5)
        XCTAssertTrue(power.touched(at: saturday2230), "the touch woke it")
        XCTAssertEqual(power.state(at: saturday2230 + 60).reason, "touch")
        XCTAssertTrue(power.isOn(at: saturday2230 + 299))
        XCTAssertFalse(power.isOn(at: saturday2230 + 300))
        XCTAssertEqual(power.nextChange(after: saturday2230 + 1), saturday2230 + 300)
        XCTAssertFalse(power.touched(at: monday1200), "a lit screen is not woken")
    }
}

final class WindowTablesTests: LocalZoneTestCase {
    private func parse(_ text: String) -> ConfigFileParser.Result {
        ConfigFileParser.parse(bytes: Array(text.utf8), file: "/etc/carouseld/carouseld.conf")
    }

    func testScreenTablesAreTheSchedule() {
        let result = parse("""
            wake_minutes = 2
            [[screen]]
            days = ["mon", "tue", "wed", "thu", "fri"]
            on = "07:30"
            off = "22:00"
            [[screen]]
            days = ["sat"]
            on = 10:00:00
            off = "02:00"
            """)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.shell.schedule.wakeMinutes, 2)
        XCTAssertEqual(result.shell.schedule.screens, [
            WeeklyWindow(days: [1, 2, 3, 4, 5], start: 450, end: 1320),
            WeeklyWindow(days: [6], start: 600, end: 120),
        ])
    }

    func testBadScheduleLinesAreNamedInCheck() {
        let result = parse("""
            [[screen]]
            days = ["mon", "funday"]
            on = "7:30"
            off = "25:00"
            [[screen]]
            on = "08:00"
            [[playlist]]
            from = "06:00"
            to = "06:00"
            file = "morning.m3u"
            """)
        XCTAssertEqual(result.problems.map(\.description), [
            "/etc/carouseld/carouseld.conf:2: screen.days: \"funday\" is not a day; allowed sun, mon, tue, wed, thu, fri, sat",
            "/etc/carouseld/carouseld.conf:3: screen.on: \"7:30\" is not a time; allowed HH:MM, e.g. \"07:30\"",
            "/etc/carouseld/carouseld.conf:4: screen.off: \"25:00\" is not a time; allowed HH:MM, e.g. \"07:30\"",
            "/etc/carouseld/carouseld.conf:5: screen.off: missing; each [[screen]] gives on and off, e.g. on = \"07:30\"",
            "/etc/carouseld/carouseld.conf:9: playlist.to: the window from = \"06:00\", to = \"06:00\" is empty",
        ])
    }

    func testOverlappingDaypartsAreWarnedAboutAndTheFirstWins() throws {
        let result = parse("""
            [[playlist]]
            file = "morning.m3u"
            from = "06:00"
            to = "11:00"
            [[playlist]]
            file = "late.m3u"
            days = ["fri", "sat"]
            from = "22:00"
            to = "03:00"
            [[playlist]]
            file = "brunch.m3u"
            from = "10:00"
            to = "14:00"
            """)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.warnings.map(\.description), [
            "/etc/carouseld/carouseld.conf:10: playlist: brunch.m3u overlaps the [[playlist]] at line 1 (morning.m3u); "
                + "the first one wins where they overlap",
        ])
        XCTAssertEqual(result.shell.schedule.dayparts.map(\.file), ["morning.m3u", "late.m3u", "brunch.m3u"])
    }

    func testTheDaypartShownFollowsTheLocalClockAndFallsBackToTheMainPlaylist() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg", "c.jpg"], config: """
            interval = 3
            [[playlist]]
            file = "morning.m3u"
            from = "06:00"
            to = "11:00"
            [[playlist]]
            file = "night.m3u"
            days = ["sat"]
            from = "22:00"
            to = "03:00"
            """)
        try dir.write("morning.m3u", "b.jpg\n")
        try dir.write("night.m3u", "c.jpg\na.jpg\n")
        let loaded = try ConfigLoader.load(directory: dir.path)
        let saturday2230 = 1_774_733_400.0
        XCTAssertEqual(loaded.daypart(at: saturday2230).file, "night.m3u")
        XCTAssertEqual(loaded.daypart(at: saturday2230).items.map(\.name), ["c.jpg", "a.jpg"])
        XCTAssertEqual(loaded.daypart(at: saturday2230 + 3 * 3600).file, "night.m3u", "01:30 on sunday: still saturday's night")
        XCTAssertNil(loaded.daypart(at: saturday2230 + 4 * 3600).file, "03:30 CEST (the clocks went forward): over")
        XCTAssertEqual(loaded.daypart(at: saturday2230 + 9 * 3600).file, "morning.m3u", "08:30 CEST sunday")
        XCTAssertNil(loaded.daypart(at: saturday2230 + 14 * 3600).file, "13:30: the main playlist")
        XCTAssertEqual(loaded.daypart(at: saturday2230 + 14 * 3600).items.count, 3)
        XCTAssertNil(loaded.daypart(at: nil).file, "a clock not yet believed: the main playlist")
        XCTAssertEqual(loaded.daypart(at: nil).items.count, 3)
    }

    func testAMissingDaypartFileIsAProblemOnItsTable() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"], config: """
            interval = 3
            [[playlist]]
            file = "evening.m3u"
            from = "18:00"
            to = "23:00"
            """)
        XCTAssertThrowsError(try ConfigLoader.load(directory: dir.path)) { error in
            let problems = (error as? ConfigLoadError)?.problems ?? []
            XCTAssertEqual(problems.count, 1)
            XCTAssertTrue(problems.first?.hasPrefix(dir.path + "/carouseld.conf:2: playlist.file: " + dir.path + "/evening.m3u:") == true,
                          "\(problems)")
        }
    }
}
