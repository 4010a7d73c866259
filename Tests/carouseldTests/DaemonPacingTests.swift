import CarouselEngine
import XCTest
@testable import carouseld

/// A display whose flips complete only when the test says so.
final class FakeOutput: DisplayOutput {
    var size: Size? = Size(width: 640, height: 400)
    var pending = false
    var presents = 0
    var presentsWhilePending = 0
    var refreshInterval = 1.0 / 60
    var onPresented: ((Double) -> Void)?
    var onScreenChanged: (() -> Void)?
    private var memory = [UInt32](repeating: 0, count: 640 * 400)

    var summary: String { "fake" }
    var canPresent: Bool { size != nil && !pending }
    func attach(to loop: EventLoop) throws {}
    func restore() {}

    func present(_ draw: (FrameTarget) -> Void) throws(DisplayError) {
        if pending || size == nil { presentsWhilePending += 1 }
        let (w, h) = (Int(size?.width ?? 0), Int(size?.height ?? 0))
        memory.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress, w * h <= 640 * 400 else { return }
            draw(FrameTarget(pixels: base, width: w, height: h, stride: w * 4, bufferIndex: presents % 2, bufferCount: 2))
        }
        presents += 1
        pending = true
    }

    /// The flip completes at `time`.
    func completeFlip(at time: Double) {
        pending = false
        onPresented?(time)
    }

    func changeScreen(to newSize: Size?) {
        size = newSize
        pending = false
        onScreenChanged?()
    }
}

final class RecordingRenderer: FrameRenderer {
    var layouts: [FrameLayout] = []
    func draw(_ layout: FrameLayout, into target: FrameTarget) { layouts.append(layout) }
}

final class DaemonPacingTests: XCTestCase {
    private func makeDaemon(items: Int = 3) throws -> (Daemon, FakeOutput, RecordingRenderer, EventLoop) {
        let loop = try EventLoop()
        let output = FakeOutput()
        let renderer = RecordingRenderer()
        let engine = CarouselEngine(config: CarouselConfig(), itemCount: items, viewport: Size(width: 1, height: 1),
                                    now: MonotonicClock.now())
        let daemon = try Daemon(engine: engine, output: output, renderer: renderer, loop: loop)
        return (daemon, output, renderer, loop)
    }

    func testTheFirstFrameIsDrawnAtTheScreenSize() throws {
        let (daemon, output, renderer, _) = try makeDaemon()
        daemon.start()
        XCTAssertEqual(output.presents, 1)
        XCTAssertEqual(renderer.layouts.first?.viewport, Size(width: 640, height: 400))
        XCTAssertEqual(renderer.layouts.first?.cards.first?.index, 0)
    }

    func testTheFirstCompletedFlipIsReportedOnce() throws {
        let (daemon, output, _, _) = try makeDaemon()
        var firsts: [Double] = []
        daemon.onFirstFrame = { firsts.append($0) }
        daemon.start()
        output.completeFlip(at: 12.5)
        daemon.invalidate()
        output.completeFlip(at: 12.6)
        XCTAssertEqual(firsts, [12.5])
        XCTAssertEqual(daemon.framesPresented, 2)
    }

    func testSettledMeansNoMoreFramesAndNoWakeups() throws {
        var config = CarouselConfig()
        config.interval = 0   // no auto-advance: nothing at all may wake the loop
        let loop = try EventLoop()
        let output = FakeOutput()
        let engine = CarouselEngine(config: config, itemCount: 3, viewport: Size(width: 640, height: 400),
                                    now: MonotonicClock.now())
        let daemon = try Daemon(engine: engine, output: output, renderer: RecordingRenderer(), loop: loop)
        daemon.start()
        output.completeFlip(at: MonotonicClock.now())
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 100), 0)
        XCTAssertEqual(output.presents, 1)
    }

    func testARedrawRequestedDuringAFlipWaitsForIt() throws {
        let (daemon, output, renderer, _) = try makeDaemon()
        daemon.start()
        daemon.invalidate()
        daemon.invalidate()
        XCTAssertEqual(output.presents, 1, "a second flip was queued while one was pending")
        output.completeFlip(at: MonotonicClock.now())
        XCTAssertEqual(output.presents, 2)
        XCTAssertEqual(renderer.layouts.count, 2)
        XCTAssertEqual(output.presentsWhilePending, 0)
    }

    func testAnUnchangedLayoutIsNotCommittedAgain() throws {
        let (daemon, output, _, _) = try makeDaemon()
        daemon.start()
        output.completeFlip(at: MonotonicClock.now())
        daemon.updateEngine(now: MonotonicClock.now()) { _ in [] }
        XCTAssertEqual(output.presents, 1)
    }

    func testNothingIsDrawnWhileTheScreenIsGoneAndAllOfItWhenItReturns() throws {
        let (daemon, output, renderer, _) = try makeDaemon()
        daemon.start()
        output.completeFlip(at: MonotonicClock.now())
        output.changeScreen(to: nil)
        daemon.invalidate()
        XCTAssertEqual(output.presents, 1)
        XCTAssertEqual(output.presentsWhilePending, 0)
        output.changeScreen(to: Size(width: 400, height: 640))
        XCTAssertEqual(output.presents, 2)
        XCTAssertEqual(renderer.layouts.last?.viewport, Size(width: 400, height: 640))
        XCTAssertEqual(daemon.engine.viewport, Size(width: 400, height: 640))
    }
}
