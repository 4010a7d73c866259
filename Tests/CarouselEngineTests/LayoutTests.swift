import XCTest
@testable import CarouselEngine

final class LayoutTests: XCTestCase {
    func testStepIsCardWidthPlusSpacingAndNeighboursPeek() {
        let layout = Fixture.engine().layout()
        XCTAssertEqual(layout.cards.count, 3)
        let byX = layout.cards.sorted { $0.x < $1.x }
        XCTAssertEqual(byX.map(\.index), [4, 0, 1])
        XCTAssertEqual(byX.map(\.x), [200 - 640, 200, 200 + 640] as [Double])
        XCTAssertEqual(byX[0].y, 100)
        // Each neighbour is partly on screen, partly off.
        let left = byX[0], right = byX[2]
        let leftRight = left.x + left.width * (1 + left.scale) / 2
        XCTAssertGreaterThan(leftRight, 0)
        XCTAssertLessThan(left.x, 0)
        let rightLeft = right.x + right.width * (1 - right.scale) / 2
        XCTAssertLessThan(rightLeft, 1000)
        XCTAssertGreaterThan(right.x + right.width, 1000)
    }

    func testOnlyCardsIntersectingTheViewportAreListed() {
        // 300 px cards + 20 px spacing on 1000 px: centre at 350, then 670 (visible), 990 (visible
        // because it starts before 1000), 1310 (off); on the left 30, -290 (visible to -290+300=10).
        let engine = Fixture.engine(items: 9) { $0.cardWidth = .pixels(300); $0.spacing = 20; $0.emphasis.sideScale = 1 }
        let xs = engine.layout().cards.map(\.x).sorted()
        XCTAssertEqual(xs, [-290, 30, 350, 670, 990])
        for card in engine.layout().cards {
            XCTAssertTrue(card.x + card.width > 0 && card.x < 1000)
        }
    }

    func testFractionAndPixelCardSizes() {
        var engine = CarouselEngine(config: Fixture.config { $0.cardWidth = .fraction(0.5); $0.cardHeight = .fraction(0.25) },
                                    itemCount: 3, viewport: Size(width: 1200, height: 800), now: 0)
        var centre = engine.topCard!
        XCTAssertEqual(centre.width, 600)
        XCTAssertEqual(centre.height, 200)
        XCTAssertEqual(centre.x, 300)
        XCTAssertEqual(centre.y, 300)
        engine.resize(Size(width: 800, height: 400))
        centre = engine.topCard!
        XCTAssertEqual(centre.width, 400)
        XCTAssertEqual(centre.x, 200)
        let pixels = Fixture.engine { $0.cardWidth = .pixels(250); $0.cardHeight = .pixels(150) }
        XCTAssertEqual(pixels.topCard?.width, 250)
        XCTAssertEqual(pixels.topCard?.height, 150)
        XCTAssertEqual(pixels.topCard?.x, 375)
    }

    /// Dragging one page pixel by pixel: the incoming card grows and brightens steadily, the
    /// outgoing one shrinks, and no step of one pixel changes scale by more than its share.
    func testEmphasisIsContinuousAndMonotoneInDistance() {
        var engine = Fixture.engine { $0.gesture.touchSlop = 0; $0.emphasis.sideScale = 0.8; $0.emphasis.sideOpacity = 0.5 }
        _ = engine.handle(touch(0, .down, 900))
        var incoming: [CardLayout] = [], outgoing: [CardLayout] = []
        for px in 1...640 {
            _ = engine.handle(touch(Double(px) * 0.01, .move, 900 - Double(px)))
            let cards = engine.layout().cards
            incoming.append(cards.first { $0.index == 1 }!)
            outgoing.append(cards.first { $0.index == 0 }!)
        }
        let maxStep = (1 - 0.8) / 640 + 1e-12
        for (a, b) in zip(incoming, incoming.dropFirst()) {
            XCTAssertGreaterThanOrEqual(b.scale, a.scale)
            XCTAssertGreaterThanOrEqual(b.opacity, a.opacity)
            XCTAssertLessThanOrEqual(b.scale - a.scale, maxStep)
        }
        for (a, b) in zip(outgoing, outgoing.dropFirst()) { XCTAssertLessThanOrEqual(b.scale, a.scale) }
        XCTAssertEqual(incoming.first!.scale, 0.8 + 0.2 / 640, accuracy: 1e-12)
        XCTAssertEqual(incoming.last!.scale, 1, accuracy: 1e-12)
        XCTAssertEqual(incoming.last!.opacity, 1, accuracy: 1e-12)
        XCTAssertEqual(incoming[319].scale, 0.9, accuracy: 1e-12, "half way is half emphasised")
        XCTAssertEqual(incoming[319].opacity, 0.75, accuracy: 1e-12)
        XCTAssertEqual(outgoing.last!.scale, 0.8, accuracy: 1e-12)
    }

    func testCentreMostCardIsDrawnLast() {
        var engine = Fixture.engine { $0.gesture.touchSlop = 0 }
        XCTAssertEqual(engine.layout().cards.last?.index, 0)
        _ = engine.handle(touch(0, .down, 900))
        _ = engine.handle(touch(0.1, .move, 900 - 300))
        XCTAssertEqual(engine.layout().cards.last?.index, 0)
        _ = engine.handle(touch(0.2, .move, 900 - 340))
        XCTAssertEqual(engine.layout().cards.last?.index, 1)
    }

    func testCardsPerPageGroupsCardsAroundTheCentre() {
        // 6 items, 2 per page: 3 pages; the page's two cards straddle the centre line.
        var engine = Fixture.engine(items: 6) { $0.cardsPerPage = 2; $0.cardWidth = .pixels(300); $0.spacing = 20 }
        var layout = engine.layout()
        XCTAssertEqual(layout.pageCount, 3)
        XCTAssertEqual(layout.selectedPage, 0)
        let c0 = layout.cards.first { $0.index == 0 && abs($0.x - 500) < 500 }!
        let c1 = layout.cards.first { $0.index == 1 && abs($0.x - 500) < 500 }!
        XCTAssertEqual(c0.x + 300, 500 - 10)
        XCTAssertEqual(c1.x, 500 + 10)
        XCTAssertEqual(c0.scale, 1)
        XCTAssertEqual(c1.scale, 1)
        _ = engine.page(by: 1, now: 0)
        XCTAssertEqual(engine.runUntilSettled(from: 0)?.index, 2)
        layout = engine.layout()
        XCTAssertEqual(layout.selectedIndex, 2)
        XCTAssertEqual(layout.selectedPage, 1)
        XCTAssertEqual(layout.cards.suffix(2).map(\.index).sorted(), [2, 3])
    }

    func testPartialLastPageIsCentredOnItsCards() {
        // 5 items, 2 per page: pages {0,1} {2,3} {4}; the lone card 4 sits in the middle.
        var engine = Fixture.engine(items: 5) { $0.cardsPerPage = 2; $0.cardWidth = .pixels(300); $0.spacing = 20 }
        XCTAssertEqual(engine.layout().pageCount, 3)
        _ = engine.page(by: -1, now: 0)
        XCTAssertEqual(engine.runUntilSettled(from: 0)?.index, 4)
        let card = engine.layout().cards.first { $0.index == 4 && abs($0.x - 350) < 1 }
        XCTAssertEqual(card?.x, 350)
        XCTAssertEqual(engine.layout().selectedPage, 2)
    }

    func testUnusableViewportsGiveNoCardsInsteadOfCrashing() {
        for size in [Size(width: 0, height: 0), Size(width: .nan, height: 600), Size(width: .infinity, height: 600),
                     Size(width: 1e300, height: 1e300)] {
            var engine = CarouselEngine(config: Fixture.config { $0.cardWidth = .fraction(0.5) }, itemCount: 4,
                                        viewport: size, now: 0)
            var events: [CarouselEvent] = []
            let lift = engine.swipe(from: 900, to: 100, at: 0, duration: 0.1, events: &events)
            _ = engine.handle(touch(lift + 0.1, .down, 10))
            _ = engine.handle(touch(lift + 0.15, .up, 10))
            _ = engine.run(from: lift + 0.15, to: lift + 3)
            XCTAssertEqual(engine.layout().cards, [], "\(size)")
            XCTAssertFalse(engine.isMoving)
            engine.resize(Fixture.viewport)
            XCTAssertEqual(engine.layout().cards.count, 3)
        }
    }

    /// The loader rejects such values, but the engine must not turn them into NaN either.
    func testAnInvalidConfigStillLaysOutFiniteCards() {
        let bad = Fixture.config {
            $0.emphasis.centerScale = .nan; $0.emphasis.sideOpacity = .infinity; $0.spacing = .nan; $0.cardsPerPage = 0
            $0.gesture.springResponse = 0; $0.gesture.springDamping = .nan; $0.gesture.maxPagesPerGesture = -3; $0.interval = .nan
        }
        XCTAssertFalse(bad.validate().isEmpty)
        var engine = CarouselEngine(config: bad, itemCount: 4, viewport: Fixture.viewport, now: 0)
        var events: [CarouselEvent] = []
        let lift = engine.swipe(from: 900, to: 300, at: 0, duration: 0.1, events: &events)
        _ = engine.run(from: lift, to: lift + 3)
        XCTAssertFalse(engine.isMoving)
        XCTAssertEqual(engine.selectedIndex, 1)
        for card in engine.layout().cards {
            XCTAssertTrue([card.x, card.scale, card.opacity].allSatisfy(\.isFinite), "\(card)")
            XCTAssertTrue((0...1).contains(card.opacity))
        }
    }
}
