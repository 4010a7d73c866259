import Foundation
import XCTest
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// A card wanted in full gets its preview first only where the preview is the cheaper decode:
/// a JPEG's (read at 1/8 scale); a PNG or WebP would be decoded whole twice, so its card comes
/// straight away. Previews of cards not wanted in full (the fling window) are made either way.
final class CheapPreviewTests: XCTestCase {
    let spec = CardSpec(width: 320, height: 240)

    /// The decodes the worker starts, in order: (index, preview).
    final class Started: @unchecked Sendable {
        let lock = NSLock()
        var list: [String] = []
        func add(_ index: Int, _ preview: Bool) { lock.withLock { list.append("\(index)\(preview ? " preview" : "")") } }
    }

    func decodes(of paths: [String], full: [Int], previews: [Int]) -> [String] {
        let started = Started()
        let worker = DecodeWorker(paths: paths, spec: spec, beforeDecode: started.add, onResult: {})
        defer { worker.stop() }
        _ = worker.want(full, previews: previews, ahead: previews.count, spec: spec, visible: full)
        worker.start()
        worker.waitUntilIdle()
        return started.lock.withLock { started.list }
    }

    func testAPNGWantedInFullIsDecodedWithoutAPreviewFirst() throws {
        XCTAssertNotNil(spec.preview, "a card big enough to have previews")
        let dir = try TestPictures.temporaryDirectory(self)
        let png = try TestPictures.writePNG(TestPictures.noise(width: 640, height: 480), "\(dir)/a.png")
        let jpeg = try TestPictures.write(TestPictures.jpeg(TestPictures.noise(width: 640, height: 480)), "\(dir)/b.jpg")
        XCTAssertEqual(decodes(of: [png], full: [0], previews: []), ["0"])
        XCTAssertEqual(decodes(of: [jpeg], full: [0], previews: []), ["0 preview", "0"])
        // Off the wanted cards, a PNG's preview is still made: it is what a fling shows.
        XCTAssertEqual(decodes(of: [png, png], full: [0], previews: [1]), ["0", "1 preview"])
    }

    func testFormatsByTheirFirstBytes() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        XCTAssertEqual(ImageFormat(path: try TestPictures.writePNG(TestPictures.solid(0, width: 4, height: 4), "\(dir)/x.jpg")), .png)
        XCTAssertEqual(ImageFormat(path: "\(dir)/missing.png"), .unknown)
        XCTAssertTrue(ImageFormat.jpeg.hasCheapPreview)
        XCTAssertFalse(ImageFormat.png.hasCheapPreview)
        XCTAssertFalse(ImageFormat.webp.hasCheapPreview)
    }
}
