@testable import CarouselBackends
@testable import CarouselCore
import CarouselEngine
import XCTest
@testable import carouseld
@testable import CarouselPixels

/// The panned strip through the carousel: a flat look's page change is drawn once, at rest, and
/// its frames are columns of that window; what a window cannot show is composed.
final class CarouselPanningTests: XCTestCase {
    private let time = ManualTime(1000)

    private func makeDaemon(fade: Bool = false, pans: Bool = true) throws -> (Carousel, FakeOutput, RecordingRenderer, EventLoop) {
        let loop = try EventLoop(time: time)
        let (carousel, outputs, renderers) = try Carousel.recording(items: 5, interval: 0, loop: loop) { config in
            config.cardWidth = .fraction(0.6)   // side cards on screen
            config.emphasis.sideScale = 1
            config.emphasis.sideOpacity = 1
            config.dots.shown = false
            if fade { config.transition.style = .fade }
        }
        outputs[0].pans = pans
        renderers[0].drawsPanWindows = true
        return (carousel, outputs[0], renderers[0], loop)
    }

    /// Pages once and runs the page change to rest, a flip each 1/60 s.
    private func pageOnce(_ daemon: Carousel, _ output: FakeOutput, _ loop: EventLoop, by delta: Int = 1) throws {
        var t = time.now()
        output.completeFlip(at: t)
        daemon.updateEngine(cause: .ctl) { $0.page(by: delta, now: t) }
        try loop.runOnce(timeoutMilliseconds: 0)
        // A flip each refresh while one is queued; the timer's turn when none is (a frame equal
        // to the one before is not committed), until the strip rests and its last frame is shown.
        for _ in 0..<600 where daemon.engine.isMoving || output.pending {
            t += 1.0 / 60
            time.set(t)
            if output.pending { output.completeFlip(at: t) } else { try loop.runOnce(timeoutMilliseconds: 0) }
        }
        XCTAssertFalse(daemon.engine.isMoving, "the page change ended")
    }

    func testAPageChangeIsDrawnOnceAtRestAndPannedSinceThen() throws {
        let (daemon, output, renderer, loop) = try makeDaemon()
        daemon.start()
        XCTAssertEqual(renderer.layouts.last?.viewport.width, 640, "the first frame is composed at the screen's size")
        XCTAssertEqual(output.windowsAcquired, 0, "no window in the first frame's time")
        output.completeFlip(at: time.now())
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.windowsAcquired, 1, "after the first frame's flip, at rest: the window around the page")
        let window = try XCTUnwrap(renderer.layouts.last)
        XCTAssertGreaterThan(window.viewport.width, 640, "drawn into a wide buffer")
        XCTAssertFalse(window.isMoving)
        let drawn = renderer.layouts.count, columns = output.columns.count

        try pageOnce(daemon, output, loop)
        let panned = output.columns.dropFirst(columns)
        XCTAssertGreaterThan(panned.count, 10, "every frame of the first page change is a column of the window")
        XCTAssertEqual(renderer.layouts.count, drawn + 1, "one drawing: the next window, at rest")
        XCTAssertEqual(renderer.layouts.last?.isMoving, false)
        let moving = panned.dropLast()   // the last frame is the new window's rest column
        XCTAssertTrue(zip(moving, moving.dropFirst()).allSatisfy { $0.1 >= $0.0 - 4 }, "the column moves one way (but for the overshoot): \(Array(moving))")
        XCTAssertEqual(output.columns.last, output.columns[columns - 1], "at rest: the same column of the next window")
        let step = Int(try XCTUnwrap(daemon.engine.restingLayouts(pagesAway: [1]).first?.distance).rounded())
        XCTAssertEqual(Array(output.columns.suffix(2)), [output.columns[columns - 1] + step, output.columns[columns - 1]],
                       "the frame that came to rest is shown from the window the page change panned across, a page along; the next window follows it")
    }

    func testAFadesFramesAreComposedAndItsRestIsAWindow() throws {
        let (daemon, output, renderer, loop) = try makeDaemon(fade: true)
        daemon.start()
        try pageOnce(daemon, output, loop)
        XCTAssertEqual(output.windowsAcquired, 2, "at rest after the start, and after the first fade: a window each")
        let columns = output.columns.count, drawn = renderer.layouts.count
        try pageOnce(daemon, output, loop)
        let fading = renderer.layouts[drawn...].dropLast()
        XCTAssertGreaterThan(fading.count, 10)
        XCTAssertTrue(fading.allSatisfy { $0.viewport.width == 640 && $0.cards.contains { $0.opacity < 1 } },
                      "the fade's translucent frames composed at the screen's size, and only those")
        XCTAssertEqual(renderer.layouts.last?.isMoving, false, "then the window around the page faded to")
        XCTAssertLessThanOrEqual(output.columns.count - columns, 3,
                                 "panned: the fade's first frame (the page before, untouched), its rest from the window on screen, and the next window")
    }

    func testAWindowIsDrawnOnlyOnceItsCardsAreFull() throws {
        let (daemon, output, renderer, loop) = try makeDaemon()
        renderer.cardsFull = false
        daemon.start()
        try pageOnce(daemon, output, loop)
        XCTAssertEqual(output.columns, [], "a window is not drawn with previews in it")
        XCTAssertGreaterThan(renderer.asks.last?.viewport.width ?? 0, 640,
                             "the last ask is the window's, after the frame composed in its place: its cards go on decoding")
        XCTAssertTrue(renderer.layouts.allSatisfy { $0.viewport.width == 640 })
        renderer.cardsFull = true
        let visible = Set(daemon.engine.layout().cards.map(\.index))
        let offScreen = try XCTUnwrap((0..<5).first { !visible.contains($0) })
        daemon.cardsDecoded(ImageStore.Update(ready: [offScreen], failed: []))
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.columns.count, 1, "a card of the pages around decoded: the rest is a window now")
    }

    func testAnOutputThatCannotPanIsAskedOnceThenComposes() throws {
        let (daemon, output, renderer, loop) = try makeDaemon(pans: false)
        daemon.start()
        try pageOnce(daemon, output, loop)
        let frames = renderer.layouts.count
        try pageOnce(daemon, output, loop)
        XCTAssertEqual(output.columns, [])
        XCTAssertGreaterThan(renderer.layouts.count - frames, 10, "every frame composed")
        XCTAssertTrue(renderer.layouts.allSatisfy { $0.viewport.width == 640 })
    }
}
