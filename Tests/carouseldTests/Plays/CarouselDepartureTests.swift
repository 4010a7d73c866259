@testable import CarouselCore
import CarouselEngine
import XCTest
@testable import carouseld

/// The pacer tells when a strip at rest starts moving, and for whom: the countdown at its own
/// deadline, a request at its time; a request while moving is no new departure.
final class CarouselDepartureTests: XCTestCase {
    private let time = ManualTime(100)

    func testTheCountdownLeavesAtItsDeadlineAndARequestAtItsTime() throws {
        let loop = try EventLoop(time: time)
        let (daemon, outputs, _) = try Carousel.recording(items: 3, interval: 2, loop: loop)
        let output = outputs[0]
        let listener = CarouselListener(daemon.events)
        daemon.start()
        // Frames every 1/60 s (flips complete at once, as a virtual GPU's): the countdown fires
        // between two of them, and its departure is the deadline itself.
        for _ in 0..<200 {
            time.advance(by: 1.0 / 60)
            if output.pending { output.completeFlip(at: time.now()) }
            try loop.runOnce(timeoutMilliseconds: 0)
        }
        XCTAssertEqual(listener.departures.map(\.0), [.auto])
        XCTAssertEqual(listener.departures.first?.1 ?? 0, 102, accuracy: 1e-9)
        XCTAssertFalse(daemon.engine.isMoving)
        let t = time.now()
        daemon.updateEngine(cause: .ctl) { $0.page(by: 1, now: t) }
        daemon.updateEngine(cause: .touch) { $0.page(by: 1, now: t + 0.1) }
        try loop.runOnce(timeoutMilliseconds: 0)   // the events are handed out after the handler
        XCTAssertEqual(listener.departures.map(\.0), [.auto, .ctl], "the second request caught a moving strip")
        XCTAssertEqual(listener.departures.last?.1 ?? 0, t, accuracy: 1e-9)
    }
}
