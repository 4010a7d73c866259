@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
import XCTest

/// carouseld.conf parsing: every key, every wrong type, range errors, unknown keys, positions.
final class ConfigParserTests: XCTestCase {
    private func parse(_ text: String) -> ConfigFileParser.Result {
        ConfigFileParser.parse(bytes: Array(text.utf8), file: "/etc/carouseld/carouseld.conf")
    }

    func testEveryKeySetsItsProperty() {
        let result = parse("""
            interval = 7
            card_width = 640
            card_height = "50%"
            spacing = 10.5
            cards_per_page = 2
            center_scale = 1.1
            side_scale = 0.7
            center_opacity = 0.9
            side_opacity = 0.4
            fit = "contain"
            background = "#203040"
            dots = false
            dot_size = 9
            dot_spacing = 5
            dot_color = "#010203"
            dot_active_color = "#a0B0c0"
            dots_position = "top"
            dots_margin = 20
            spring_response = 0.4
            spring_damping = 1.0
            touch_slop = 10
            fling_velocity = 500
            page_threshold = 0.3
            max_pages_per_gesture = 3
            tap_timeout = 0.2
            output = "HDMI-A-1"
            layout = "span"
            mode = "1280x720@60"
            rotation = 90
            force_legacy = true
            seat = "seat1"
            touch = false
            keyboard = false
            pointer = false
            media = "/srv/pictures"
            max_image_pixels = 5000000
            cache_mb = 128
            disk_cache_mb = 32
            """)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.warnings, [])
        var expected = CarouselConfig()
        expected.interval = 7; expected.cardWidth = .pixels(640); expected.cardHeight = .fraction(0.5)
        expected.spacing = 10.5; expected.cardsPerPage = 2; expected.emphasis.centerScale = 1.1; expected.emphasis.sideScale = 0.7
        expected.emphasis.centerOpacity = 0.9; expected.emphasis.sideOpacity = 0.4; expected.fit = .contain
        expected.background = RGB(0x203040); expected.dots.shown = false; expected.dots.size = 9; expected.dots.spacing = 5
        expected.dots.color = RGB(0x010203); expected.dots.activeColor = RGB(0xA0B0C0); expected.dots.position = .top
        expected.dots.margin = 20; expected.gesture.springResponse = 0.4; expected.gesture.springDamping = 1.0
        expected.gesture.touchSlop = 10; expected.gesture.flingVelocity = 500; expected.gesture.pageThreshold = 0.3
        expected.gesture.maxPagesPerGesture = 3; expected.gesture.tapTimeout = 0.2
        XCTAssertEqual(result.config, expected)
        var shell = ShellSettings()
        shell.output = "HDMI-A-1"
        shell.layout = .span
        shell.mode = "1280x720@60"; shell.rotation = 90; shell.kms.forceLegacy = true; shell.input.seat = "seat1"
        shell.input.touch = false; shell.input.keyboard = false; shell.input.pointer = false; shell.media.directory = "/srv/pictures"
        shell.media.maxImagePixels = 5_000_000; shell.media.cacheMB = 128; shell.media.diskCacheMB = 32
        XCTAssertEqual(result.shell, shell)
    }

    func testEmptyFileGivesDefaults() {
        let result = parse("# nothing set\n")
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.config, CarouselConfig())
    }

    func testEveryKeyIsListedOnce() {
        XCTAssertEqual(ConfigKey.all.count, Set(ConfigKey.all.map(\.name)).count)
        XCTAssertEqual(ConfigKey.all.count, 54, "a CarouselConfig or ShellSettings property was added or removed: map it here")
    }

    /// Each key given a value of the wrong type: one problem, on the key's line, naming the expected type.
    func testEveryWrongTypeIsReportedWithLineAndExpectedType() {
        let wrongByKind: [(keys: [String], value: String, expected: String)] = [
            (["interval", "spacing", "center_scale", "side_scale", "center_opacity", "side_opacity", "dot_size",
              "dot_spacing", "dots_margin", "spring_response", "spring_damping", "touch_slop", "fling_velocity",
              "page_threshold", "tap_timeout", "sync_resume", "wake_minutes", "touch_timeout", "fade_duration", "cec_off_delay", "cec_on_delay"], "\"fast\"", "expected a number, got string \"fast\""),
            (["cards_per_page", "max_pages_per_gesture", "rotation", "max_image_pixels", "cache_mb", "disk_cache_mb"], "2.5",
             "expected an integer, got floating-point number 2.5"),
            (["dots", "force_legacy", "touch", "keyboard", "pointer"], "\"yes\"",
             "expected true or false, got string \"yes\""),
            (["seat", "media", "output", "mode", "metrics_file", "cache_dir", "backlight", "cec"], "5", "expected a string, got integer 5"),
            (["card_width", "card_height"], "\"wide\"",
             "expected a number of pixels or a percentage string such as \"80%\", got string \"wide\""),
            (["card_width"], "true", "expected a number of pixels or a percentage string such as \"80%\", got bool true"),
            (["background", "dot_color", "dot_active_color"], "\"red\"", "expected a colour string \"#RRGGBB\", got string \"red\""),
            (["background"], "\"#12345\"", "expected a colour string \"#RRGGBB\", got string \"#12345\""),
            (["background"], "\"123456\"", "expected a colour string \"#RRGGBB\", got string \"123456\""),
            (["fit"], "\"stretch\"", "expected \"cover\" or \"contain\", got string \"stretch\""),
            (["dots_position"], "\"left\"", "expected \"bottom\" or \"top\", got string \"left\""),
            (["backend"], "\"x11\"", "expected \"auto\" or \"drm\" or \"fbdev\" or \"wayland\", got string \"x11\""),
            (["sync"], "\"ntp\"", "expected \"off\" or \"wallclock\", got string \"ntp\""),
            (["transition"], "\"wipe\"", "expected \"slide\" or \"fade\" or \"cut\", got string \"wipe\""),
            (["trust_clock"], "\"never\"", "expected \"synchronised\" or \"always\", got string \"never\""),
            (["planes"], "\"on\"", "expected \"auto\" or \"off\", got string \"on\""),
            (["epoch"], "12", "expected an RFC 3339 time such as \"2000-01-01T00:00:00Z\", got integer 12"),
            (["layout"], "\"stack\"", "expected \"mirror\" or \"independent\" or \"span\", got string \"stack\""),
            (["interval"], "[1, 2]", "expected a number, got array […]"),
            (["interval"], "{ a = 1 }", "expected a number, got table {…}"),
            (["seat"], "1979-05-27", "expected a string, got date 1979-05-27"),
        ]
        var covered = Set<String>()
        for (keys, value, expected) in wrongByKind {
            for key in keys {
                covered.insert(key)
                let other = key == "seat" ? "media" : "seat"
                let result = parse("# comment\n\(other) = \"x\"\n\n  \(key) = \(value)\n")
                let problems = result.problems.map(\.description)
                XCTAssertEqual(problems, ["/etc/carouseld/carouseld.conf:4: \(key): \(expected)"], "key \(key)")
            }
        }
        XCTAssertEqual(covered, Set(ConfigKey.all.map(\.name)), "every key has a wrong-type case")
    }

    func testWrongTypeOnIntervalNamesLine() {
        let result = parse("dots = true\ninterval = \"fast\"\n")
        XCTAssertEqual(result.problems.map(\.description),
                       ["/etc/carouseld/carouseld.conf:2: interval: expected a number, got string \"fast\""])
    }

    func testOutOfRangeValuesComeFromValidateWithLines() {
        let result = parse("""
            interval = -1
            card_width = "150%"
            card_height = 0
            rotation = 45
            mode = "big"
            cache_mb = 1
            spring_damping = nan
            """)
        let problems = result.problems.map(\.description)
        let file = "/etc/carouseld/carouseld.conf"
        XCTAssertEqual(problems, [
            "\(file):1: interval: -1 is out of range; allowed 0...86400 seconds (0 disables)",
            "\(file):2: card_width: \"150%\" is out of range; allowed a percentage in (0%...100%] or 1...16384 pixels",
            "\(file):3: card_height: 0 is out of range; allowed 1...16384 pixels",
            "\(file):7: spring_damping: nan is out of range; allowed 0.1...4",
            "\(file):4: rotation: 45 is not allowed; allowed 0, 90, 180, 270",
            "\(file):5: mode: \"big\" is not a mode; allowed WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1920x1080@60",
            "\(file):6: cache_mb: 1 is out of range; allowed 8...4096",
        ])
    }

    func testIntegralFloatIsAcceptedAsInteger() {
        let result = parse("cards_per_page = 2.0\nrotation = 180")
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.config.cardsPerPage, 2)
        XCTAssertEqual(result.shell.rotation, 180)
    }

    func testUnknownKeysAreWarningsNotProblems() {
        let result = parse("interval = 2\nintervall = 3\n[display]\nwidth = 5\n")
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.config.interval, 2)
        XCTAssertEqual(result.warnings.map(\.description), [
            "/etc/carouseld/carouseld.conf:2: intervall: unknown key, ignored",
            "/etc/carouseld/carouseld.conf:3: display: unknown key, ignored",
        ])
    }

    func testSyntaxErrorHasTheParsersPosition() throws {
        let result = parse("interval = 3\nspacing = = 4\n")
        let problem = try XCTUnwrap(result.problems.first)
        XCTAssertEqual(result.problems.count, 1)
        XCTAssertEqual(problem.line, 2)
        XCTAssertEqual(problem.key, "syntax")
        XCTAssertTrue(problem.description.hasPrefix("/etc/carouseld/carouseld.conf:2: syntax: "), problem.description)
    }

    func testDuplicateKeyIsASyntaxError() {
        let result = parse("interval = 3\ninterval = 4\n")
        XCTAssertEqual(result.problems.map(\.line), [2])
    }

    func testNulAndInvalidUTF8AreRefusedWithLine() {
        let nul = ConfigFileParser.parse(bytes: Array("a = 1\nb = 2\0\n".utf8), file: "f")
        XCTAssertEqual(nul.problems.map(\.description), ["f:2: syntax: control character 0x0 in file; TOML allows only tab and line ends"])
        let bad = ConfigFileParser.parse(bytes: Array("a = 1\n".utf8) + [0xFF, 0xFE, 0x0A], file: "f")
        XCTAssertEqual(bad.problems.map(\.description), ["f:2: syntax: file is not valid UTF-8"])
    }

    /// Inputs on which toml++ 3.4 asserts instead of reporting (found by the fuzz test).
    func testTomlPlusPlusCrashInputsAreRefusedFirst() {
        for text in ["[#", "[\u{1E}", "[{", "t = 1\n[[[", "[\r\n", "[ \n", "[\u{E9}]", "[[ #x"] {
            let result = ConfigFileParser.parse(bytes: Array(text.utf8), file: "f")
            XCTAssertEqual(result.problems.count, 1, text.debugDescription)
            XCTAssertEqual(result.problems.first?.key, "syntax", text.debugDescription)
        }
        XCTAssertEqual(ConfigFileParser.parse(bytes: Array("t = 1\n  [ a ]\n[[b]]\n[\"c\"]\n".utf8), file: "f").problems, [])
    }

    func testCRLFLineEndsKeepLineNumbers() {
        let result = parse("dots = true\r\n\r\nfit = \"fill\"\r\n")
        XCTAssertEqual(result.problems.map(\.line), [3])
    }

    func testQuotedKeysAndDottedTablesAreFound() {
        let result = parse("\"interval\" = \"x\"\nfoo.bar = 1\n")
        XCTAssertEqual(result.problems.map(\.description),
                       ["/etc/carouseld/carouseld.conf:1: interval: expected a number, got string \"x\""])
        XCTAssertEqual(result.warnings.map(\.line), [2])
    }

    func testLongBadValuesAreShortened() throws {
        let long = String(repeating: "x", count: 500)
        let problem = try XCTUnwrap(parse("seat = 1\nfit = \"\(long)\"").problems.last)
        XCTAssertLessThan(problem.description.count, 200)
    }
}
