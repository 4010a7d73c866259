@testable import CarouselEngine
@testable import CarouselPixels
import XCTest

/// Cards on overlay planes (issue 24): which frames can go on planes, where each card goes and
/// which part of it shows, and why a frame is composed instead.
final class PlaneAssignmentTests: XCTestCase {
    /// The engine's own layouts of a 1000x600 screen with 600x400 cards (step 640).
    private func layout(_ change: (inout CarouselConfig) -> Void = { _ in }, at time: Double = 0) -> FrameLayout {
        var config = CarouselConfig()
        config.cardWidth = .pixels(600); config.cardHeight = .pixels(400); config.spacing = 40; config.interval = 1
        change(&config)
        var engine = CarouselEngine(config: config, itemCount: 5, viewport: Size(width: 1000, height: 600), now: 0)
        _ = engine.update(now: time)
        return engine.layout()
    }

    private let decoded: (Int) -> (width: Int, height: Int)? = { _ in (600, 400) }

    private enum Assigned: Equatable {
        case planes([PlacedCard])
        case compose(String)
    }

    /// What the DRM output makes of a layout: the cards placed, then refused by its planes or not.
    private func assign(_ layout: FrameLayout, cardSize: (Int) -> (width: Int, height: Int)?, planes: PlaneCapabilities) -> Assigned {
        guard let placed = PlaneAssignment.place(layout, cardSize: cardSize) else { return .compose(ComposeReason.cardNotDecoded.detail) }
        return planes.refusal(for: placed).map { .compose($0.detail) } ?? .planes(placed)
    }
    private let vkms = PlaneCapabilities(overlays: 8, canScale: false, hasAlpha: false)

    private func flat(_ config: inout CarouselConfig) {
        config.emphasis.sideScale = 1; config.emphasis.sideOpacity = 1
    }

    func testAtRestEachVisibleCardGetsAPlaneCutAtTheScreensEdgeInSource() {
        guard case .planes(let placed) = assign(layout(flat), cardSize: decoded, planes: vkms) else {
            return XCTFail("flat cards fit vkms's planes")
        }
        XCTAssertEqual(placed.map(\.item), [4, 1, 0], "neighbours below, the centre card on top")
        XCTAssertEqual(placed[2].destination, IntRect(x: 200, y: 100, width: 600, height: 400))
        XCTAssertTrue(placed[2].source == (0, 0, 600, 400))
        // The left neighbour's card starts at 200 - 640 = -440: its right 160 px show.
        XCTAssertEqual(placed[0].destination, IntRect(x: 0, y: 100, width: 160, height: 400))
        XCTAssertTrue(placed[0].source == (440, 0, 160, 400), "\(placed[0].source)")
        XCTAssertEqual(placed[1].destination, IntRect(x: 840, y: 100, width: 160, height: 400))
        XCTAssertTrue(placed[1].source == (0, 0, 160, 400))
        XCTAssertTrue(placed.allSatisfy { $0.alpha == 1 })
    }

    func testSideScaleOnPlanesThatCannotScaleIsComposedWithTheReason() {
        let frame = layout { $0.emphasis.sideScale = 0.8; $0.emphasis.sideOpacity = 1 }
        XCTAssertEqual(assign(frame, cardSize: decoded, planes: vkms),
                       .compose("the planes cannot scale (a card at 0.8x)"))
        let scaling = PlaneCapabilities(overlays: 8, canScale: true, hasAlpha: false)
        guard case .planes(let placed) = assign(frame, cardSize: decoded, planes: scaling) else {
            return XCTFail("planes that scale take the side cards")
        }
        XCTAssertEqual(placed[0].destination, IntRect(x: 0, y: 140, width: 100, height: 320),
                       "480x320 centred on the card at -440: from -380 to 100")
        XCTAssertEqual(placed[0].source.x, 380 * 600 / 480, accuracy: 1e-9, "the 380 px off screen, in card pixels")
        XCTAssertEqual(placed[0].source.width, 100 * 600 / 480, accuracy: 1e-9)
    }

    func testOpacityNeedsTheAlphaPropertyAndAFadeUsesIt() {
        let fading = layout({ flat(&$0); $0.transition.style = .fade; $0.transition.fadeDuration = 1 }, at: 1.5)
        XCTAssertEqual(assign(fading, cardSize: decoded, planes: vkms),
                       .compose("the planes have no alpha property (a card at opacity 0.5)"))
        let withAlpha = PlaneCapabilities(overlays: 8, canScale: false, hasAlpha: true)
        guard case .planes(let placed) = assign(fading, cardSize: decoded, planes: withAlpha) else {
            return XCTFail("per-plane alpha takes the fade")
        }
        XCTAssertEqual(placed.last?.item, 1, "the incoming page on top")
        XCTAssertEqual(placed.last?.alpha ?? 0, 0.5, accuracy: 1e-9)
    }

    func testTooFewPlanesOrACardNotDecodedYetIsComposed() {
        let three = PlaneCapabilities(overlays: 2, canScale: false, hasAlpha: false)
        XCTAssertEqual(assign(layout(flat), cardSize: decoded, planes: three),
                       .compose("3 cards on screen, 2 overlay planes"))
        XCTAssertEqual(assign(layout(flat), cardSize: { $0 == 1 ? nil : (600, 400) }, planes: vkms),
                       .compose("a card is not decoded yet"))
    }
}
