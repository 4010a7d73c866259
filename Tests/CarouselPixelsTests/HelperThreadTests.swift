import Foundation
import XCTest
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// With a helper thread, two cards on screen decode side by side: a first frame's cards take
/// the time of the slower, not of both. Off-screen cards are left to the first thread.
final class HelperThreadTests: XCTestCase {
    let spec = CardSpec(width: 40, height: 30)

    func testTwoCardsOnScreenDecodeSideBySide() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let paths = try (0..<3).map { i in
            try TestPictures.writePNG(TestPictures.solid(0x202020 * UInt32(i + 1), width: 32, height: 24), "\(dir)/\(i).png")
        }
        // Whichever of the cards on screen starts first waits until the other has started too:
        // one thread alone would never get there.
        let started = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let overlapped = Overlap()
        let worker = DecodeWorker(paths: paths, spec: spec, helperThreads: 1, beforeDecode: { index, _ in
            guard index < 2 else { return }
            started[index].signal()
            if started[1 - index].wait(timeout: .now() + 10) == .success { overlapped.saw(index) }
            started[1 - index].signal()
        }, onResult: {})
        defer { worker.stop() }
        _ = worker.want([0, 1, 2], spec: spec, visible: [0, 1])
        worker.start()
        worker.waitUntilIdle()
        XCTAssertEqual(worker.decoded([0, 1, 2]).count, 3, "every wanted card, the off-screen one too")
        XCTAssertEqual(overlapped.indices, [0, 1], "each card on screen saw the other's decode start while it waited")
    }

    final class Overlap: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: Set<Int> = []
        func saw(_ index: Int) { lock.withLock { _ = seen.insert(index) } }
        var indices: [Int] { lock.withLock { seen.sorted() } }
    }
}
