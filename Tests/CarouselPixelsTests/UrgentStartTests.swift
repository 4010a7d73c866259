import CarouselCore
import Foundation
import Glibc
import XCTest
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// The daemon's first stores decode at the loop's priority until the worker is first idle, then
/// at `DetachedThread.backgroundNice` below it, as every other store always does.
final class UrgentStartTests: XCTestCase {
    let spec = CardSpec(width: 40, height: 30)

    /// The nice value each decode ran at, by index.
    final class Nice: @unchecked Sendable {
        let lock = NSLock()
        var byIndex: [Int: Int32] = [:]
        // Linux keeps a nice value per thread; PRIO_PROCESS with 0 reads the calling thread's.
        func record(_ index: Int) { let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0); lock.withLock { byIndex[index] = nice } }
        subscript(_ index: Int) -> Int32? { lock.withLock { byIndex[index] } }
    }

    func decodes(urgent: Bool) throws -> Nice {
        let dir = try TestPictures.temporaryDirectory(self)
        let paths = try (0..<2).map { i in
            try TestPictures.writePNG(TestPictures.solid(0x404040, width: 32, height: 24), "\(dir)/\(i).png")
        }
        let nice = Nice()
        let worker = DecodeWorker(paths: paths, spec: spec, beforeDecode: { index, _ in nice.record(index) }, onResult: {})
        defer { worker.stop() }
        _ = worker.want([0], spec: spec, visible: [0])
        worker.start(urgentUntilIdle: urgent)
        worker.waitUntilIdle()
        _ = worker.want([0, 1], spec: spec, visible: [1])
        worker.waitUntilIdle()
        return nice
    }

    func testTheFirstDecodesRunAtTheLoopsPriorityThenBackground() throws {
        let base = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let urgent = try decodes(urgent: true)
        XCTAssertEqual(urgent[0], base, "the first frame's decode at the loop's priority")
        XCTAssertEqual(urgent[1], min(19, base + DetachedThread.backgroundNice), "after the first idle, background")
        let background = try decodes(urgent: false)
        XCTAssertEqual(background[0], min(19, base + DetachedThread.backgroundNice), "a later store: background from the start")
    }
}
