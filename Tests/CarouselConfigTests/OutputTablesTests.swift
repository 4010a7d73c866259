@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
import XCTest

/// `[[output]]` tables in carouseld.conf: parsing, overrides, the `output` shorthand and every
/// problem with its file:line.
final class OutputTablesTests: XCTestCase {
    private let file = "/etc/carouseld/carouseld.conf"

    private func parse(_ text: String) -> ConfigFileParser.Result {
        ConfigFileParser.parse(bytes: Array(text.utf8), file: file)
    }

    private func problems(_ text: String) -> [String] { parse(text).problems.map(\.description) }

    // MARK: - The shim

    func testShimFlattensArraysOfTablesWithHeaderEntriesAndLines() throws {
        let entries = try TOMLDocument.parse(Array("""
            interval = 3
            [[output]]
            name = "A"
            [[output]]

            [[output]]
            mode = "1x1"
            name = "C"
            """.utf8))
        let shown = entries.map { "\($0.table ?? "-")/\($0.tableIndex)/\($0.key)@\($0.line)" }
        XCTAssertEqual(shown, ["-/-1/interval@1", "output/0/@2", "output/0/name@3", "output/1/@4",
                               "output/2/@6", "output/2/mode@7", "output/2/name@8"])
        XCTAssertEqual(entries.filter(\.isTableHeader).count, 3)
    }

    func testShimReadsArraysOfStrings() throws {
        let entries = try TOMLDocument.parse(Array("days = [\"mon\", \"tue\"]\nnone = []\nmixed = [\"a\", 1]\nn = 5\n".utf8))
        XCTAssertEqual(entries.map(\.value.strings), [["mon", "tue"], [], nil, nil])
        XCTAssertEqual(entries.first?.value.shown, "[…]")
    }

    func testInlineArrayOfTablesIsReadLikeHeaders() {
        let result = parse("output = [{ name = \"A\" }, { name = \"B\", rotation = 90 }]\n")
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.shell.outputs.map(\.name), ["A", "B"])
        XCTAssertEqual(result.shell.outputs.map(\.line), [1, 1])
        XCTAssertEqual(result.shell.outputs.map(\.rotation), [nil, 90])
    }

    // MARK: - Parsing

    func testNoTablesMeansEveryConnector() {
        let result = parse("interval = 3\n")
        XCTAssertEqual(result.shell.outputs, [])
        XCTAssertEqual(result.shell.outputTables(result.config), [])
    }

    func testOutputShorthandIsOneTable() {
        let result = parse("output = \"HDMI-A-1\"\nmode = \"1280x720\"\ninterval = 9\n")
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.shell.output, "HDMI-A-1")
        XCTAssertEqual(result.shell.outputs, [])
        var config = CarouselConfig()
        config.interval = 9
        XCTAssertEqual(result.shell.outputTables(result.config),
                       [OutputTable(name: "HDMI-A-1", mode: "1280x720", config: config)])
    }

    func testOneTable() {
        let result = parse("""
            rotation = 90
            [[output]]
            name = "HDMI-A-2"
            mode = "1920x1080@60"
            rotation = 180
            touch = "ILITEK ILITEK-TP"
            """)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.warnings, [])
        XCTAssertEqual(result.shell.layout, .mirror)
        XCTAssertEqual(result.shell.rotation, 90, "a table's rotation is its own")
        XCTAssertEqual(result.shell.outputs, [OutputTable(name: "HDMI-A-2", mode: "1920x1080@60", rotation: 180,
                                                          touch: "ILITEK ILITEK-TP", config: CarouselConfig(), line: 2)])
        XCTAssertEqual(result.shell.outputTables(result.config), result.shell.outputs)
    }

    /// Overrides start from the top level even when the top-level key comes later in the file
    /// (TOML puts top-level keys first, but toml++ orders nothing: the apply order matters).
    func testTwoIndependentTablesWithOverrides() {
        let result = parse("""
            layout = "independent"
            interval = 5
            dots = false
            [[output]]
            name = "HDMI-A-1"
            playlist = "lobby.m3u"
            interval = 8
            [[output]]
            name = "HDMI-A-2"
            card_width = "50%"
            """)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.shell.layout, .independent)
        let tables = result.shell.outputs
        XCTAssertEqual(tables.map(\.name), ["HDMI-A-1", "HDMI-A-2"])
        XCTAssertEqual(tables.map(\.line), [4, 8])
        XCTAssertEqual(tables.map(\.playlist), ["lobby.m3u", nil])
        XCTAssertEqual(tables.map(\.config.interval), [8, 5])
        XCTAssertEqual(tables.map(\.config.dots.shown), [false, false])
        XCTAssertEqual(tables.map(\.config.cardWidth), [CarouselConfig().cardWidth, .fraction(0.5)])
        XCTAssertEqual(result.config.interval, 5, "the top level keeps its own value")
    }

    func testShellKeysAndUnknownKeysInATableAreWarnings() {
        let result = parse("[[output]]\nname = \"A\"\nseat = \"seat1\"\nwidth = 3\n[[signs]]\nx = 1\n[[signs]]\n")
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.shell.input.seat, "seat0")
        XCTAssertEqual(result.warnings.map(\.description), [
            "\(file):3: output.seat: not a per-output setting, ignored",
            "\(file):4: output.width: unknown key, ignored",
            "\(file):5: signs: unknown table, ignored",
        ])
    }

    // MARK: - Problems

    func testMissingAndEmptyName() {
        XCTAssertEqual(problems("interval = 3\n\n[[output]]\nmode = \"640x480\"\n[[output]]\nname = \"\"\n"), [
            "\(file):3: output.name: missing; each [[output]] names its connector, e.g. name = \"HDMI-A-1\"",
            "\(file):6: output.name: \"\" is empty; allowed a connector name such as HDMI-A-1",
        ])
        XCTAssertEqual(problems("[[output]]\n"), [
            "\(file):1: output.name: missing; each [[output]] names its connector, e.g. name = \"HDMI-A-1\"",
        ])
    }

    func testSameConnectorTwice() {
        XCTAssertEqual(problems("[[output]]\nname = \"HDMI-A-1\"\n[[output]]\nname = \"DP-1\"\n[[output]]\n\nname = \"HDMI-A-1\"\n"), [
            "\(file):7: output.name: HDMI-A-1 is already used by the [[output]] at line 1",
        ])
    }

    func testBadModeAndRotationInATable() {
        XCTAssertEqual(problems("[[output]]\nname = \"A\"\nmode = \"big\"\nrotation = 45\n"), [
            "\(file):3: output.mode: \"big\" is not a mode; allowed WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1920x1080@60",
            "\(file):4: output.rotation: 45 is not allowed; allowed 0, 90, 180, 270",
        ])
    }

    func testWrongTypesInATable() {
        XCTAssertEqual(problems("[[output]]\nname = 1\nrotation = \"left\"\ntouch = true\ninterval = \"x\"\n"), [
            "\(file):2: output.name: expected a string, got integer 1",
            "\(file):3: output.rotation: expected an integer, got string \"left\"",
            "\(file):4: output.touch: expected a string, got bool true",
            "\(file):5: output.interval: expected a number, got string \"x\"",
        ])
    }

    func testPlaylistAndOverridesOnlyWhenIndependent() {
        let text = "[[output]]\nname = \"A\"\nplaylist = \"a.m3u\"\ninterval = 4\n"
        for layout in ["", "layout = \"mirror\"\n", "layout = \"span\"\n"] {
            let shift = layout.isEmpty ? 0 : 1
            XCTAssertEqual(problems(layout + text), [
                "\(file):\(3 + shift): output.playlist: only with layout = \"independent\"",
                "\(file):\(4 + shift): output.interval: only with layout = \"independent\"",
            ], layout)
        }
        XCTAssertEqual(problems("layout = \"independent\"\n" + text), [])
    }

    func testOverrideOutOfRangeIsCheckedPerTable() {
        XCTAssertEqual(problems("layout = \"independent\"\ninterval = -1\n[[output]]\nname = \"A\"\ncard_height = 0\n"), [
            "\(file):2: interval: -1 is out of range; allowed 0...86400 seconds (0 disables)",
            "\(file):5: output.card_height: 0 is out of range; allowed 1...16384 pixels",
        ], "the top-level interval is reported once, at the top level")
    }

    func testOutputKeyWithTablesIsRefusedWithItsLine() throws {
        let result = parse("output = \"HDMI-A-1\"\n\n[[output]]\nname = \"DP-1\"\n")
        let problem = try XCTUnwrap(result.problems.first)
        XCTAssertEqual(result.problems.count, 1)
        XCTAssertEqual(problem.line, 3, problem.description)
        XCTAssertTrue(problem.description.hasPrefix("\(file):3: "), problem.description)
    }

    // MARK: - Connectors

    func testUnknownConnectors() {
        let tables = [OutputTable(name: "Virtual-1", config: CarouselConfig(), line: 2),
                      OutputTable(name: "HDMI-A-9", config: CarouselConfig(), line: 5)]
        XCTAssertEqual(OutputTables.unknownConnectors(tables, available: ["Virtual-1", "Virtual-2"], file: "f").map(\.description),
                       ["f:5: output.name: connector HDMI-A-9 not found; available: Virtual-1, Virtual-2"])
        XCTAssertEqual(OutputTables.unknownConnectors(tables, available: [], file: "f").map(\.description), [
            "f:2: output.name: connector Virtual-1 not found; available: none",
            "f:5: output.name: connector HDMI-A-9 not found; available: none",
        ])
        XCTAssertEqual(OutputTables.unknownConnectors(tables, available: ["HDMI-A-9", "Virtual-1"], file: "f"), [])
    }
}
