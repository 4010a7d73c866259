@testable import CarouselPixels
import XCTest
@testable import CarouselBackends

/// A frame's request names only the overlay properties that changed since the last applied
/// commit, and always FB_ID (the plane, and so its CRTC and the flip event, are in every frame).
final class OverlaySettingsTests: XCTestCase {
    private let plane = OverlayPlanes.Plane(id: 40, fb: 1, crtc: 2, srcX: 3, srcY: 4, srcW: 5, srcH: 6,
                                            crtcX: 7, crtcY: 8, crtcW: 9, crtcH: 10, alpha: 11, zpos: 12, zposValue: 1)

    private func card(x: Int, width: Int = 600, alpha: Double = 1) -> PlacedCard {
        PlacedCard(item: 0, source: (0, 0, Double(width), 400), destination: IntRect(x: x, y: 100, width: width, height: 400), alpha: alpha)
    }

    private func settings(_ placed: PlacedCard, fb: UInt32 = 90) -> OverlaySettings {
        OverlaySettings(placed, framebuffer: fb, crtcID: 51, zpos: 2, hasAlpha: true)
    }

    /// The properties (by id) and values `now` puts in a request after `shown`.
    private func request(_ now: OverlaySettings, after shown: OverlaySettings?) -> [UInt32: UInt64] {
        var set: [UInt32: UInt64] = [:]
        now.changes(from: shown, on: plane) { property, value in set[property] = value }
        return set
    }

    func testAPlaneNotKnownGetsEveryProperty() {
        let set = request(settings(card(x: 300)), after: nil)
        XCTAssertEqual(Set(set.keys), Set(1...12), "all twelve, zpos and alpha included")
        XCTAssertEqual(set[1], 90)
        XCTAssertEqual(set[2], 51)
        XCTAssertEqual(set[5], 600 << 16, "SRC_W in 16.16")
        XCTAssertEqual(set[7], 300)
        XCTAssertEqual(set[11], 0xffff)
    }

    func testASlideNamesTheFramebufferAndWhatMoved() {
        let set = request(settings(card(x: 280)), after: settings(card(x: 300)))
        XCTAssertEqual(set, [1: 90, 7: 280])
    }

    func testAFrameThatMovesNothingStillNamesTheFramebuffer() {
        XCTAssertEqual(request(settings(card(x: 300)), after: settings(card(x: 300))), [1: 90])
    }

    func testACardCutByTheEdgeAndFadingChangesItsCropAndOpacity() {
        let set = request(settings(card(x: 0, width: 500, alpha: 0.5), fb: 91), after: settings(card(x: 20)))
        XCTAssertEqual(set, [1: 91, 5: 500 << 16, 7: 0, 9: 500, 11: 0x8000])
    }

    func testANegativePositionIsSentAsItsBitPattern() {
        let set = request(settings(card(x: -40)), after: nil)
        XCTAssertEqual(set[7], UInt64(bitPattern: -40))
    }
}
