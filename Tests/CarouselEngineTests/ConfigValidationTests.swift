import XCTest
@testable import CarouselEngine

final class ConfigValidationTests: XCTestCase {
    func testDefaultsAreValid() {
        XCTAssertEqual(CarouselConfig().validate(), [])
    }

    func testEachBadValueNamesKeyValueAndRange() {
        var c = CarouselConfig()
        c.interval = -1
        c.cardWidth = .fraction(1.5)
        c.rotation = 45
        c.mode = "1920by1080"
        c.maxPagesPerGesture = 0
        let issues = c.validate()
        XCTAssertEqual(issues.map(\.key), ["interval", "card_width", "max_pages_per_gesture", "rotation", "mode"])
        XCTAssertEqual(issues[0].description, "interval: -1 is out of range; allowed 0...86400 seconds (0 disables)")
        XCTAssertTrue(issues[1].message.contains("\"150%\""), issues[1].message)
        XCTAssertTrue(issues[3].message.contains("45") && issues[3].message.contains("0, 90, 180, 270"))
        XCTAssertTrue(issues[4].message.contains("1920by1080"))
    }

    func testNaNIsRejected() {
        var c = CarouselConfig()
        c.springResponse = .nan
        XCTAssertEqual(c.validate().map(\.key), ["spring_response"])
    }

    func testDisplayModeParsing() {
        XCTAssertEqual(DisplayMode(parsing: "1920x1080"), DisplayMode(parsing: "1920x1080"))
        XCTAssertEqual(DisplayMode(parsing: "1920x1080@60")?.refresh, 60)
        XCTAssertNil(DisplayMode(parsing: "1920x"))
        XCTAssertNil(DisplayMode(parsing: "0x1080"))
        XCTAssertNil(DisplayMode(parsing: "1920x1080@"))
    }
}
