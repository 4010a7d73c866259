import XCTest
@testable import CarouselEngine

/// `transition = "fade"` and `"cut"`: the fade is a state of the layout (the page on screen,
/// and over it the next page with a rising opacity), tested like the spring.
final class FadeTests: XCTestCase {
    private func fading(interval: Double = 5, duration: Double = 1) -> CarouselEngine {
        Fixture.engine { $0.interval = interval; $0.transition.style = .fade; $0.transition.fadeDuration = duration }
    }

    /// The layout of `engine`'s page `item` at rest, made by an engine that never moved.
    private func rest(on item: Int) -> FrameLayout {
        var config = Fixture.config()
        config.transition.style = .fade
        return CarouselEngine(config: config, itemCount: 5, viewport: Fixture.viewport, now: 0, startIndex: item).layout()
    }

    func testAutoAdvanceFadesInPlaceAndTheEndsEqualThePagesAtRest() {
        var engine = fading()
        _ = engine.update(now: 5)
        XCTAssertTrue(engine.isMoving)
        XCTAssertEqual(engine.selectedIndex, 1, "the page faded to is the one shown in the status and dots")
        XCTAssertEqual(engine.layout().cards, rest(on: 0).cards, "the first frame of the fade is the page at rest")
        _ = engine.update(now: 5.5)
        let middle = engine.layout().cards
        let incoming = middle.filter { $0.index == 1 && $0.x == Fixture.centreX }
        XCTAssertEqual(incoming.count, 1, "the next picture fades in where the centre card is, not sliding")
        XCTAssertEqual(incoming.first?.opacity ?? 0, 0.5, accuracy: 1e-9, "smoothstep: half way at half time")
        XCTAssertEqual(middle.last, incoming.first, "drawn last, over the page faded from")
        XCTAssertTrue(middle.contains { $0.index == 0 && $0.x == Fixture.centreX && $0.opacity == 1 },
                      "the page faded from stays opaque under it")
        let events = engine.run(from: 5.5, to: 6.0)
        XCTAssertEqual(events, [.settled(time: 6.0, index: 1)], "settles when the fade's time is up")
        XCTAssertFalse(engine.isMoving)
        XCTAssertEqual(engine.layout().cards, rest(on: 1).cards, "the last frame is the next page at rest")
        XCTAssertEqual(engine.nextDeadline, 11, "the interval counts from the settle")
    }

    func testTheFadeIsTheSameWhateverTheFrameRate() {
        var prompt = fading(), late = fading()
        _ = prompt.run(from: 0, to: 5.3, hz: 60)
        _ = late.update(now: 5.3)
        XCTAssertEqual(prompt.layout(), late.layout())
    }

    func testAFingerDuringAFadeEndsItOnItsPageAndTheTouchSlides() {
        var engine = fading()
        _ = engine.update(now: 5.4)
        var events: [CarouselEvent] = []
        let lift = engine.swipe(from: 900, to: 600, at: 5.5, duration: 0.1, events: &events)
        XCTAssertEqual(events.first, .settled(time: 5.5, index: 1), "the finger's down ends the fade on its page")
        XCTAssertTrue(engine.isMoving)
        XCTAssertTrue(engine.layout().cards.allSatisfy { $0.opacity > 0.5 || $0.x != Fixture.centreX },
                      "a touch always slides: no card fades")
        XCTAssertEqual(engine.runUntilSettled(from: lift)?.index, 2)
    }

    func testCtlNextDuringAFadeStartsTheNextFadeFromItsPage() {
        var engine = fading(interval: 0)
        _ = engine.page(by: 1, now: 1)
        let events = engine.page(by: 1, now: 1.2)
        XCTAssertEqual(events, [.settled(time: 1.2, index: 1)])
        XCTAssertEqual(engine.selectedIndex, 2)
        XCTAssertEqual(engine.pageSettleDuration, 1, "sync starts a fade its duration before the boundary")
    }

    func testACutChangesPageAtOnce() {
        var engine = Fixture.engine { $0.interval = 5; $0.transition.style = .cut }
        XCTAssertEqual(engine.update(now: 5), [.settled(time: 5, index: 1)])
        XCTAssertFalse(engine.isMoving)
        XCTAssertEqual(engine.layout().cards, rest(on: 1).cards)
        XCTAssertEqual(engine.pageSettleDuration, 0)
    }
}
