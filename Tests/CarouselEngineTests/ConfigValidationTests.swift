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
        c.gesture.maxPagesPerGesture = 0
        let issues = c.validate()
        XCTAssertEqual(issues.map(\.key), ["interval", "card_width", "max_pages_per_gesture"])
        XCTAssertEqual(issues[0].description, "interval: -1 is out of range; allowed 0...86400 seconds (0 disables)")
        XCTAssertTrue(issues[1].message.contains("\"150%\""), issues[1].message)
    }

    func testNaNIsRejected() {
        var c = CarouselConfig()
        c.gesture.springResponse = .nan
        XCTAssertEqual(c.validate().map(\.key), ["spring_response"])
    }
}
