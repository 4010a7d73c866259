@testable import CarouselConfig
import XCTest

/// Problems of one kind are one log line with their count, in `carouseld check` and in the
/// daemon's log on every reload.
final class ConfigProblemSummaryTests: XCTestCase {
    private let missing = ConfigProblem.Kind(file: "/c/playlist.m3u", message: "not found in /m; skipped")

    private func notFound(_ line: Int) -> ConfigProblem {
        ConfigProblem(file: "/c/playlist.m3u", line: line, key: "p\(line).jpg", message: "not found in /m; skipped", kind: missing)
    }

    func testTenThousandMissingEntriesAreOneLineWithTheirCount() {
        let lines = ConfigProblem.summarised((1...10_000).map(notFound))
        XCTAssertEqual(lines, ["/c/playlist.m3u: 10000 entries not found in /m; skipped: "
                               + "line 1 p1.jpg, line 2 p2.jpg, line 3 p3.jpg and 9997 more"])
    }

    func testOneProblemOfItsKindIsLoggedAsItIs() {
        XCTAssertEqual(ConfigProblem.summarised([notFound(7)]), ["/c/playlist.m3u:7: p7.jpg: not found in /m; skipped"])
    }

    func testKindsStaySeparateInTheOrderTheyFirstAppear() {
        let outside = ConfigProblem.Kind(file: "/c/playlist.m3u", message: "outside the media directory /m; refused")
        let problems = [
            ConfigProblem(file: "/c/carouseld.conf", line: 3, key: "speed", message: "unknown key; ignored"),
            notFound(4),
            ConfigProblem(file: "/c/playlist.m3u", line: 5, key: "../x.jpg", message: "resolves to /x.jpg, outside the media directory /m; refused", kind: outside),
            notFound(6),
            ConfigProblem(file: "/c/playlist.m3u", line: 7, key: "../y.jpg", message: "resolves to /y.jpg, outside the media directory /m; refused", kind: outside),
            ConfigProblem(file: "/c/lobby.m3u", line: 1, key: "p1.jpg", message: "not found in /m; skipped",
                          kind: .init(file: "/c/lobby.m3u", message: "not found in /m; skipped")),
        ]
        XCTAssertEqual(ConfigProblem.summarised(problems), [
            "/c/carouseld.conf:3: speed: unknown key; ignored",
            "/c/playlist.m3u: 2 entries not found in /m; skipped: line 4 p4.jpg, line 6 p6.jpg",
            "/c/playlist.m3u: 2 entries outside the media directory /m; refused: line 5 ../x.jpg, line 7 ../y.jpg",
            "/c/lobby.m3u:1: p1.jpg: not found in /m; skipped",
        ])
    }

    func testFilesOfADirectoryAreNamedByTheirName() {
        let kind = ConfigProblem.Kind(file: "/m", message: "with names that are not valid UTF-8; skipped (rename them)")
        let problems = ["a\\xff.jpg", "b\\xfe.jpg"].map {
            ConfigProblem(file: "/m/" + $0, line: nil, key: "name", message: "file name is not valid UTF-8; skipped (rename the file)", kind: kind)
        }
        XCTAssertEqual(ConfigProblem.summarised(problems),
                       ["/m: 2 entries with names that are not valid UTF-8; skipped (rename them): a\\xff.jpg, b\\xfe.jpg"])
    }
}
