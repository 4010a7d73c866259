@testable import CarouselCore
import CarouselEngine
import Glibc
import XCTest
@testable import carouseld
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// A reload retires the old image store on the event loop. Its decode worker may be in the
/// middle of a huge picture: stopping it must not wait for that decode (it used to, freezing
/// frames and the watchdog for as long as the decode took), and its result is dropped.
final class DecodeRetireTests: XCTestCase {
    func testStoppingNeverWaitsForTheDecodeInFlight() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        // 60 megapixels: libpng inflates every row, so the decode takes a while.
        let path = try TestPictures.writePNG(TestPictures.solid(0x3060D0, width: 7746, height: 7746), "\(dir)/huge.png")
        let results = ResultCounter()
        let decoding = DispatchSemaphore(value: 0)
        let worker = DecodeWorker(paths: [path], spec: CardSpec(width: 320, height: 180),
                                  beforeDecode: { _, _ in decoding.signal() }) { results.add() }
        worker.start()
        _ = worker.want([0], spec: CardSpec(width: 320, height: 180), visible: [0])
        XCTAssertEqual(decoding.wait(timeout: .now() + 10), .success, "the decode is under way")

        let t0 = Stopwatch.now()
        worker.stop()
        let stop = Stopwatch.now() - t0
        worker.waitUntilFinished()
        let inFlight = Stopwatch.now() - t0
        print(formatted("reload stall, 60-megapixel PNG decode in flight: stop() returned after %.2f ms; "
                        + "the decode went on for %.0f ms more (what a stop that waits would have stalled)",
                        stop * 1000, inFlight * 1000))
        XCTAssertLessThan(stop, 0.05, "stop() must return at once")
        XCTAssertGreaterThan(inFlight, stop, "the decode was still running when stop() returned")
        XCTAssertEqual(results.count, 0, "a result that finished after stop() is dropped, and nobody is woken")
        XCTAssertEqual(worker.cachedCount, 0)
    }

    /// The offline commands exit after their last frame: `finish()` returns only once the
    /// decode in flight has ended, and its thread with it, so nothing of the store runs on
    /// through the process's exit handlers.
    func testFinishWaitsForTheDecodeInFlight() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let path = try TestPictures.writePNG(TestPictures.solid(0x3060D0, width: 64, height: 36), "\(dir)/only.png")
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), returned = DispatchSemaphore(value: 0)
        let order = Locked<[String]>([])
        let store = ImageStore(paths: [path], spec: CardSpec(width: 64, height: 36), beforeDecode: { _, _ in
            held.signal()
            release.wait()
        })
        let layout = CarouselEngine(config: CarouselConfig(), itemCount: 1, viewport: Size(width: 64, height: 36), now: 0).layout()
        _ = store.cards(for: layout)  // asks for the card, without waiting
        XCTAssertEqual(held.wait(timeout: .now() + 10), .success, "the decode is under way")
        // The decode is let go once finish() has returned, or else after half a second of it
        // still waiting, as it must: finish() cannot return before.
        Thread.detachNewThread {
            let early = returned.wait(timeout: .now() + 0.5) == .success
            order.withLock { $0.append(early ? "finish() returned with the decode held" : "decode let go") }
            release.signal()
        }
        store.finish()
        order.withLock { $0.append("finish() returned") }
        returned.signal()
        XCTAssertEqual(held.wait(timeout: .now()), .timedOut, "no decode after the stop")
        XCTAssertEqual(order.withLock { $0 }, ["decode let go", "finish() returned"])
    }
}

private final class ResultCounter: @unchecked Sendable {
    private let lock = ConditionLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
