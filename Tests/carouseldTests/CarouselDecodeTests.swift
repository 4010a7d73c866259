@testable import CarouselBackends
@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
@testable import CarouselPixels
import Foundation
import XCTest
@testable import carouseld

/// Finished decodes reach the carousel on the loop: a card on screen is drawn again, a card
/// decoded ahead (off screen) is not.
final class CarouselDecodeTests: XCTestCase {
    private let time = ManualTime(1000)

    private func makeGroup(loop: EventLoop, output: FakeOutput) throws -> Carousel {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/example/images").standardized.path
        var config = CarouselConfig()
        config.interval = 0   // no auto-advance: only decodes ask for frames
        let items = (1...5).map { PlaylistItem(path: "\(dir)/slide\($0).png") }
        return try Carousel(plan: ScreenPlan.CarouselPlan(name: "", screens: [0], config: config), layout: .mirror,
                            outputs: [output], rotations: [0], content: .init(config: config, shell: ShellSettings(), items: items),
                            loop: loop, events: AppEvents(loop: loop), now: time.now())
    }

    /// Turns the loop for a second of the loop's clock, completing each flip.
    private func settle(_ loop: EventLoop, _ output: FakeOutput) throws {
        for _ in 0..<20 {
            time.advance(by: 0.05)
            try loop.runOnce(timeoutMilliseconds: 0)
            if output.pending { output.completeFlip(at: time.now()) }
        }
    }

    func testADecodedCardOnScreenIsDrawnAgainAndOneOffScreenIsNot() throws {
        let loop = try EventLoop(time: time)
        let output = FakeOutput()
        let group = try makeGroup(loop: loop, output: output)
        group.start()
        // Every decode the first frame asked for, finished and handed over.
        for _ in 0..<100 {
            try settle(loop, output)
            group.rendering.stores.values.forEach { $0.waitUntilIdle() }
            if try loop.runOnce(timeoutMilliseconds: 0) == 0 { break }
        }
        try settle(loop, output)
        let visible = Set(group.engine.layout().cards.map(\.index))
        let offScreen = try XCTUnwrap((0..<5).first { !visible.contains($0) }, "the layout shows \(visible)")
        let shown = group.engine.selectedIndex
        let presents = output.presents

        group.cardsDecoded(ImageStore.Update(ready: [offScreen], failed: []))
        try settle(loop, output)
        XCTAssertEqual(output.presents, presents, "a card decoded ahead asks for no frame")

        group.cardsDecoded(ImageStore.Update(ready: [shown], failed: []))
        try settle(loop, output)
        XCTAssertEqual(output.presents, presents + 1, "the card on screen is drawn again")

        group.cardsDecoded(ImageStore.Update(ready: [], failed: [shown]))
        try settle(loop, output)
        XCTAssertEqual(output.presents, presents + 2, "a card on screen that failed is drawn again (as the background)")
    }
}
