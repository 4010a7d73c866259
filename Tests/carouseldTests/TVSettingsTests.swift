@testable import CarouselConfig
import XCTest
@testable import carouseld

/// `cec`, `cec_off_delay`, `cec_on_delay`: read from carouseld.conf, checked, shown in the status.
final class TVSettingsTests: XCTestCase {
    private func parse(_ text: String) -> ConfigFileParser.Result {
        ConfigFileParser.parse(bytes: Array(text.utf8), file: "/etc/carouseld/carouseld.conf")
    }

    func testTheKeysSetTheTVSettings() {
        let result = parse("cec = \"/dev/cec1\"\ncec_off_delay = 30\ncec_on_delay = 2.5\n")
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.shell.schedule.tv.cec, "/dev/cec1")
        XCTAssertEqual(result.shell.schedule.tv.offDelay, 30)
        XCTAssertEqual(result.shell.schedule.tv.onDelay, 2.5)
        XCTAssertEqual(TVSettings().cec, "auto")
        XCTAssertEqual(TVSettings().offDelay, 0)
    }

    func testABadValueIsAProblemNamingTheFileTheKeyAndWhatIsAllowed() {
        let problems = parse("cec = \"hdmi\"\ncec_off_delay = -1\ncec_on_delay = 4000\n").problems.map(\.description)
        XCTAssertEqual(problems, [
            "/etc/carouseld/carouseld.conf:1: cec: \"hdmi\" is not allowed; allowed \"auto\", \"off\" or a device such as \"/dev/cec0\"",
            "/etc/carouseld/carouseld.conf:2: cec_off_delay: -1.0 is out of range; allowed 0...3600",
            "/etc/carouseld/carouseld.conf:3: cec_on_delay: 4000.0 is out of range; allowed 0...3600",
        ])
        XCTAssertEqual(parse("cec = \"off\"\n").problems, [])
        XCTAssertEqual(parse("cec = \"/dev/\"\n").problems.map(\.key), ["cec"])
    }

    func testTheTVsPowerIsInTheStatusAndTheMetricsOnlyWithCEC() {
        var status = DaemonStatus(
            showing: .init(index: 1, count: 2, name: "a.png", playlist: "/p", outputs: [.init(output: "", index: 1, count: 2)]),
            display: .init(screen: "off", screenReason: "ctl", tv: "standby", paused: false),
            process: .init(generation: 1, uptime: 1, frames: 1))
        XCTAssertTrue(CtlCommand.describe(status).contains("tv: standby"))
        XCTAssertTrue(String(decoding: ControlReply.jsonLine(status), as: UTF8.self).contains("\"tv\":\"standby\""))
        func tvSample(_ status: DaemonStatus) -> [String] {
            MetricsText.render(MetricsSnapshot(status: status, decodeFailures: 0, clockSynchronised: true, longestLoopGap: 0))
                .split(separator: "\n").map(String.init).filter { $0.hasPrefix("carouseld_tv_power") }
        }
        XCTAssertEqual(tvSample(status), ["carouseld_tv_power 0"])
        status.display.tv = "unknown"
        XCTAssertEqual(tvSample(status), ["carouseld_tv_power -1"])
        status.display.tv = nil
        XCTAssertEqual(tvSample(status), [])
        XCTAssertFalse(CtlCommand.describe(status).contains { $0.hasPrefix("tv:") })
    }
}
