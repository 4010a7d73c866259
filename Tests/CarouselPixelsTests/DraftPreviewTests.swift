import CarouselEngine
import CImaging
import XCTest
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// A preview is a draft: a progressive JPEG's comes from its first scans only.
final class DraftPreviewTests: XCTestCase {
    let spec = CardSpec(width: 320, height: 240)

    /// A smooth picture with coarse blocks of colour, encoded progressive.
    func progressiveJPEG() throws -> [UInt8] {
        let image = TestPictures.noise(width: 640, height: 480)
        return try XCTUnwrap(JPEGEncoder.encode(image, quality: 90, progressive: true))
    }

    /// Offsets of the start-of-scan markers (FF DA) in a JPEG.
    func scanStarts(_ bytes: [UInt8]) -> [Int] {
        (0..<bytes.count - 1).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }
    }

    func meanDifference(_ a: Card, _ b: Card) -> Double {
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                for shift in [0, 8, 16] { total += abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF)) }
            }
        }
        return Double(total) / Double(a.width * a.height * 3)
    }

    func testPreviewsAreDrafts() throws {
        let preview = try XCTUnwrap(spec.preview)
        XCTAssertTrue(preview.draft)
        XCTAssertFalse(spec.draft, "full cards are never drafts")
    }

    func testDraftOfAProgressiveJPEGLooksLikeItsFullPreview() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let bytes = try progressiveJPEG()
        XCTAssertGreaterThan(scanStarts(bytes).count, 2, "the encoder wrote a progressive file")
        let path = try TestPictures.write(bytes, "\(dir)/progressive.jpg")
        var preview = try XCTUnwrap(spec.preview)
        let draft = try ImageDecoder.makeCard(path: path, spec: preview)
        preview.draft = false
        let full = try ImageDecoder.makeCard(path: path, spec: preview)
        XCTAssertEqual(draft.width, full.width)
        XCTAssertLessThanOrEqual(meanDifference(draft, full), 2.0, "the first scans hold the block averages a 1/8 preview shows")
    }

    func testDraftReadsOnlyTheFirstScans() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let bytes = try progressiveJPEG()
        // Cut before the second scan: only the DC scan is left.
        let cut = Array(bytes[..<scanStarts(bytes)[1]])
        let path = try TestPictures.write(cut, "\(dir)/first-scan-only.jpg")
        let preview = try XCTUnwrap(spec.preview)
        XCTAssertNoThrow(try ImageDecoder.makeCard(path: path, spec: preview), "a draft never reads past the first scan")
        var full = preview
        full.draft = false
        XCTAssertThrowsError(try ImageDecoder.makeCard(path: path, spec: full)) { error in
            guard case ImageError.truncated = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try ImageDecoder.makeCard(path: path, spec: spec), "the full card finds the cut")
    }

    func testDraftAndFullCardsAreCachedApart() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let path = try TestPictures.write(try progressiveJPEG(), "\(dir)/p.jpg")
        var draft = try XCTUnwrap(spec.preview)
        var full = draft
        full.draft = false
        draft.draft = true
        XCTAssertNotEqual(CardCacheKey(path: path, spec: draft), CardCacheKey(path: path, spec: full))
    }
}
