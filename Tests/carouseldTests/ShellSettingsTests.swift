@testable import CarouselBackends
@testable import CarouselConfig
import XCTest
import CarouselEngine
@testable import carouseld

/// The shell's settings are checked apart from the engine's, by `run`, `render` and `check` alike.
final class ShellSettingsTests: XCTestCase {
    func testDefaultsAreValid() {
        XCTAssertEqual(ShellSettings().validate(), [])
    }

    func testEachBadValueNamesKeyValueAndRange() {
        var s = ShellSettings()
        s.output = ""
        s.mode = "1920by1080"
        s.rotation = 45
        s.media.cacheMB = 1
        s.media.diskCacheMB = -1
        let issues = s.validate()
        XCTAssertEqual(issues.map(\.key), ["rotation", "mode", "output", "cache_mb", "disk_cache_mb"])
        XCTAssertTrue(issues[0].message.contains("45") && issues[0].message.contains("0, 90, 180, 270"))
        XCTAssertTrue(issues[1].message.contains("1920by1080"))
        XCTAssertEqual(issues[3].description, "cache_mb: 1 is out of range; allowed 8...4096")
        XCTAssertEqual(issues[4].description, "disk_cache_mb: -1 is out of range; allowed 0...1048576")
    }

    func testCommandLineOverridesGoThroughTheSameRules() throws {
        XCTAssertThrowsError(try RunCommand.parse(["--rotation", "45"])) { error in
            XCTAssertTrue(RunCommand.message(for: error).contains("--rotation 45 is not allowed"), "\(error)")
        }
        XCTAssertThrowsError(try RunCommand.parse(["--mode", "big"])) { error in
            XCTAssertTrue(RunCommand.message(for: error).contains("--mode \"big\" is not a mode"), "\(error)")
        }
        XCTAssertNoThrow(try RunCommand.parse(["--rotation", "90", "--mode", "1280x720@60", "--output", "HDMI-A-1"]))
    }

    func testOverridesWinOverTheConfig() {
        var config = ShellSettings()
        config.rotation = 90; config.output = "DP-1"
        let options = DaemonOptions(configDirectory: "/etc/carouseld", output: "HDMI-A-1", mode: nil, rotation: 180)
        let settings = options.overriding(config)
        XCTAssertEqual(settings.rotation, 180)
        XCTAssertEqual(settings.output, "HDMI-A-1")
        XCTAssertEqual(OutputSettings(settings).connector, "HDMI-A-1")
    }

    func testOutputTablesWinOverTheShorthand() {
        var s = ShellSettings()
        XCTAssertEqual(s.layout, .mirror)
        s.output = "DP-1"
        s.mode = "800x600"
        var config = CarouselConfig()
        config.interval = 2
        XCTAssertEqual(s.outputTables(config), [OutputTable(name: "DP-1", mode: "800x600", config: config)])
        s.outputs = [OutputTable(name: "HDMI-A-1", config: CarouselConfig(), line: 4)]
        XCTAssertEqual(s.outputTables(config).map(\.name), ["HDMI-A-1"])
        XCTAssertEqual(s.validate(), [], "tables are checked by the parser, with their lines")
    }

    func testDisplayModeParsing() {
        XCTAssertEqual(DisplayMode(parsing: "1920x1080"), DisplayMode(parsing: "1920x1080"))
        XCTAssertEqual(DisplayMode(parsing: "1920x1080@60")?.refresh, 60)
        XCTAssertNil(DisplayMode(parsing: "1920x"))
        XCTAssertNil(DisplayMode(parsing: "0x1080"))
        XCTAssertNil(DisplayMode(parsing: "1920x1080@"))
    }
}
