import XCTest
@testable import CarouselEngine

/// The layouts the next page change may bring: the shell readies their cards at rest.
final class NeighbourLayoutTests: XCTestCase {
    /// The cards the strip shows at rest on a page, by index and place.
    private func cards(_ layout: FrameLayout) -> [[Double]] {
        layout.cards.map { [Double($0.index), $0.x, $0.y, $0.width, $0.scale] }.sorted { $0[1] < $1[1] }
    }

    func testTheNeighboursAreThePagesEitherSideAtRest() throws {
        let engine = Fixture.engine(items: 7, start: 3)
        let neighbours = engine.neighbourLayouts()
        XCTAssertEqual(neighbours.count, 2)
        for (delta, neighbour) in zip([1, -1], neighbours) {
            var paged = engine
            _ = paged.page(by: delta, now: 0)
            XCTAssertNotNil(paged.runUntilSettled(from: 0), "the page change ends")
            XCTAssertEqual(cards(neighbour), cards(paged.layout()), "page \(delta): the layout the strip comes to rest in")
        }
        XCTAssertEqual(neighbours[0].cards.map(\.index).sorted(), [3, 4, 5], "the next page first, its new card 5")
        XCTAssertEqual(neighbours[1].cards.map(\.index).sorted(), [1, 2, 3])
    }

    func testNoneWhileMovingOrHeldOrWithOnePage() {
        var engine = Fixture.engine(items: 5)
        _ = engine.page(by: 1, now: 0)
        _ = engine.update(now: 0.1)
        XCTAssertEqual(engine.neighbourLayouts(), [], "the strip is moving")
        XCTAssertNotNil(engine.runUntilSettled(from: 0.1))
        XCTAssertEqual(engine.neighbourLayouts().count, 2, "at rest again")
        _ = engine.handle(touch(10, .down, 500))
        XCTAssertEqual(engine.neighbourLayouts(), [], "a finger holds the strip")
        XCTAssertEqual(Fixture.engine(items: 1).neighbourLayouts(), [], "one page: no page change to ready")
    }
}
