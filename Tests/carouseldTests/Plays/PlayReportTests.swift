import Glibc
import XCTest
@testable import carouseld

/// `carouseld plays`: the times it accepts and the report it prints, with no journal.
final class PlayReportTests: XCTestCase {
    override func setUp() { setenv("TZ", "Europe/Berlin", 1); tzset() }
    override func tearDown() { unsetenv("TZ"); tzset() }

    /// 2026-11-25 14:00:00 in Berlin (UTC+1).
    private let now = 1_795_611_600.0

    func testTimesAsJournalctlWritesThem() {
        XCTAssertEqual(PlayTime.seconds("2026-11-25 14:00:00", now: 0), now)
        XCTAssertEqual(PlayTime.seconds("2026-11-25T14:00", now: 0), now)
        XCTAssertEqual(PlayTime.seconds("2026-11-25", now: 0), now - 14 * 3600)
        XCTAssertEqual(PlayTime.seconds("2026-11-25T13:00:00Z", now: 0), now, "RFC 3339 with its zone")
        XCTAssertEqual(PlayTime.seconds("@1795611600", now: 0), now)
        XCTAssertEqual(PlayTime.seconds("-1h", now: now), now - 3600)
        XCTAssertEqual(PlayTime.seconds("+30min", now: now), now + 1800)
        XCTAssertEqual(PlayTime.seconds("-2d", now: now), now - 2 * 86_400)
        XCTAssertEqual(PlayTime.seconds("today", now: now), now - 14 * 3600)
        XCTAssertEqual(PlayTime.seconds("yesterday", now: now), now - 14 * 3600 - 86_400)
        XCTAssertEqual(PlayTime.seconds("now", now: now), now)
    }

    func testWhatIsNoTime() {
        for text in ["", "bogus", "2026-02-30", "2026-11-25 25:00", "1h", "-1 fortnight", "@x", "2026-1-5", "2026-11-25 14"] {
            XCTAssertNil(PlayTime.seconds(text, now: now), text)
        }
    }

    func testTimesAreWrittenInLocalTime() {
        let micro = Int64(now * 1e6) + 123_456
        XCTAssertEqual(PlayTime.local(micro), "2026-11-25 14:00:00.123")
        XCTAssertEqual(PlayTime.iso(micro), "2026-11-25T14:00:00.123+01:00")
    }

    private func record(_ item: String, at seconds: Double, for duration: Double, _ cause: String = "auto") -> PlayRecord {
        PlayRecord(item: item, output: "HDMI-A-1", shownMicroseconds: Int64(seconds * 1e6),
                   durationMicroseconds: Int64(duration * 1e6), cause: cause, host: "box")
    }

    func testRowsAreSortedAndSelectedByTheirStartAndTotalledPerPicture() {
        let report = PlayReport([record("b", at: now + 5, for: 1.5, "ctl"), record("a", at: now, for: 4),
                                 record("a", at: now + 10, for: 4), record("a", at: now - 10, for: 4)],
                                since: now, until: now + 10)
        XCTAssertEqual(report.rows.map(\.item), ["a", "b", "a"], "oldest first; the one before --since left out")
        XCTAssertEqual(report.totals, [PlayReport.Total(item: "a", showings: 2, seconds: 8),
                                       PlayReport.Total(item: "b", showings: 1, seconds: 1.5)])
    }

    func testCSVQuotesWhatNeedsIt() {
        let report = PlayReport([record("/img/a,\"1\".jpg", at: now, for: 4)])
        XCTAssertEqual(report.csv(), "shown,shown_usec,duration_seconds,duration_usec,cause,output,host,item\r\n"
                       + "2026-11-25T14:00:00.000+01:00,1795611600000000,4.000,4000000,auto,HDMI-A-1,box,\"/img/a,\"\"1\"\".jpg\"\r\n")
        XCTAssertEqual(report.csv(totals: true), "item,showings,seconds\r\n\"/img/a,\"\"1\"\".jpg\",1,4.000\r\n")
    }

    func testTheTableHasTheShowingsAndTheTotals() {
        let table = PlayReport([record("a", at: now, for: 4), record("b", at: now + 5, for: 1.5, "ctl")]).table()
        XCTAssertEqual(table, """
            SHOWN                    DURATION  CAUSE  OUTPUT    HOST  ITEM
            2026-11-25 14:00:00.000     4.000  auto   HDMI-A-1  box   a
            2026-11-25 14:00:05.000     1.500  ctl    HDMI-A-1  box   b

            SHOWINGS  SECONDS  PICTURE
                   1    4.000  a
                   1    1.500  b
                   2    5.500  (all pictures)

            """)
    }

    func testJSONHasBothLists() throws {
        let json = PlayReport([record("a", at: now, for: 4)]).json()
        let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let showings = document?["showings"] as? [[String: Any]]
        XCTAssertEqual(showings?.first?["duration_usec"] as? Int, 4_000_000)
        XCTAssertEqual(showings?.first?["cause"] as? String, "auto")
        XCTAssertEqual((document?["totals"] as? [[String: Any]])?.first?["showings"] as? Int, 1)
    }

    func testAnUnreadableDirectoryIsNamedWithTheReason() {
        XCTAssertThrowsError(try PlayJournalReader.read(.directory("/nonexistent/plays"))) { error in
            XCTAssertEqual("\(error)", "--directory /nonexistent/plays: No such file or directory")
        }
    }
}
