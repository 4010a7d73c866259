@testable import CarouselConfig
import XCTest
@testable import carouseld

/// `metrics_file`: the Prometheus text the textfile collector serves, and the history the
/// status alone does not keep.
final class MetricsTests: XCTestCase {
    private func status(indexes: [Int], screen: String = "on", configError: String? = nil, failed: [String]? = nil) -> DaemonStatus {
        let outputs = indexes.enumerated().map { i, index in
            DaemonStatus.Carousel(output: indexes.count == 1 ? "" : "HDMI-A-\(i + 1)", index: index, count: 5, name: "p\(index).jpg")
        }
        return DaemonStatus(
            showing: .init(index: indexes[0], count: 5, name: "p\(indexes[0]).jpg", playlist: "/etc/carouseld/playlist.m3u",
                           outputs: outputs, failed: failed),
            display: .init(screen: screen, screenReason: "always", sync: nil, paused: false),
            process: .init(generation: 3, configError: configError, uptime: 12, frames: 480))
    }

    private func lines(_ snapshot: MetricsSnapshot) -> [String] {
        MetricsText.render(snapshot).split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
    }

    func testEveryFigureIsASampleWithHelpAndType() {
        let text = MetricsText.render(MetricsSnapshot(
            status: status(indexes: [2, 4], screen: "off", configError: "carouseld.conf:3: interval: …"),
            decodeFailures: 1, lastPageChange: 1_795_000_000.5, clockSynchronised: true, longestLoopGap: 0.0125,
            residentBytes: 16_777_216))
        let samples = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertEqual(samples, [
            "carouseld_up 1",
            "carouseld_item_index{output=\"HDMI-A-1\"} 2", "carouseld_item_index{output=\"HDMI-A-2\"} 4",
            "carouseld_items{output=\"HDMI-A-1\"} 5", "carouseld_items{output=\"HDMI-A-2\"} 5",
            "carouseld_screen_on 0",
            "carouseld_frames_total 480",
            "carouseld_decode_failures_total 1",
            "carouseld_config_generation 3",
            "carouseld_config_error 1",
            "carouseld_last_page_change_timestamp_seconds 1795000000.5",
            "carouseld_clock_synchronised 1",
            "carouseld_longest_loop_gap_seconds 0.0125",
            "carouseld_rss_bytes 16777216",
        ])
        // Each metric is introduced once by its HELP and TYPE, counters end in _total.
        for name in ["carouseld_up", "carouseld_item_index", "carouseld_frames_total", "carouseld_rss_bytes"] {
            XCTAssertEqual(text.components(separatedBy: "# TYPE \(name) ").count, 2, name)
            XCTAssertEqual(text.components(separatedBy: "# HELP \(name) ").count, 2, name)
        }
        XCTAssertTrue(text.contains("# TYPE carouseld_frames_total counter\n"))
        XCTAssertTrue(text.contains("# TYPE carouseld_item_index gauge\n"))
    }

    func testOneUnnamedScreenIsTheDefaultOutputAndUnknownFiguresAreLeftOut() {
        let samples = lines(MetricsSnapshot(status: status(indexes: [1]), decodeFailures: 0, lastPageChange: nil,
                                            clockSynchronised: false, longestLoopGap: 0, residentBytes: nil))
        XCTAssertTrue(samples.contains("carouseld_item_index{output=\"default\"} 1"))
        XCTAssertFalse(samples.contains { $0.hasPrefix("carouseld_last_page_change") }, "no page change yet")
        XCTAssertFalse(samples.contains { $0.hasPrefix("carouseld_rss_bytes") })
    }

    func testThePageChangeIsWhenAnIndexChangedAndFailuresCountOnce() {
        var history = ShowingHistory()
        history.observe(status(indexes: [1, 1]), at: 100)
        XCTAssertNil(history.lastPageChange, "the first picture is not a change")
        history.observe(status(indexes: [1, 1]), at: 104)
        XCTAssertNil(history.lastPageChange)
        history.observe(status(indexes: [1, 2], failed: ["a.png: truncated PNG data"]), at: 108)
        XCTAssertEqual(history.lastPageChange, 108)
        history.observe(status(indexes: [1, 2], failed: ["a.png: truncated PNG data", "b.jpg: not a JPEG"]), at: 112)
        XCTAssertEqual(history.lastPageChange, 108)
        XCTAssertEqual(history.failureCount, 2, "a.png counted once though reported twice")
    }

    func testTheMetricsFileMustBeAnAbsolutePath() {
        var shell = ShellSettings()
        shell.reporting.metricsFile = "carouseld.prom"
        XCTAssertEqual(shell.validate().map(\.key), ["metrics_file"])
        shell.reporting.metricsFile = "/var/lib/prometheus/node-exporter/carouseld.prom"
        XCTAssertEqual(shell.validate(), [])
    }
}
