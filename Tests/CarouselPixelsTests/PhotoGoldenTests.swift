@testable import CarouselCore
import CarouselEngine
import XCTest
@testable import CarouselPixels

/// Each picture of the realistic photo set (see PhotoSet) made into a 640x400 card, for fit
/// cover and contain, against PIL's decode, EXIF transpose, CMYK conversion and resize of the
/// same file. Two resamplers never agree to the level, so the bound is a mean: small enough that
/// a wrong orientation, colour conversion or frame moves far past it (those differ by tens of
/// levels), with a looser bound for the worst 8x8 block, where a misplaced edge shows.
final class PhotoGoldenTests: XCTestCase {
    static let meanBound = 3.0
    static let blockBound = 40.0

    func testJPEGPhotos() throws { try check(prefix: "jpeg-") }
    func testPNGPhotos() throws { try check(prefix: "png-") }
    func testWebPPhotos() throws { try check(prefix: "webp-") }

    func testSetCoversTheIssue() throws {
        let names = Set(try PhotoSet.entries().map(\.name))
        for name in ["jpeg-baseline-5k", "jpeg-progressive-5k", "jpeg-cmyk-adobe", "jpeg-grey", "jpeg-444", "jpeg-422",
                     "jpeg-restart-markers", "jpeg-portrait", "png-8bit-5k", "png-16bit-5k", "png-interlaced",
                     "png-palette-trns", "png-exif-orientation-6", "webp-lossy-4k", "webp-lossless-alpha",
                     "webp-animated", "webp-exif-orientation-8"] + (1...8).map({ "jpeg-orientation-\($0)" }) {
            XCTAssertTrue(names.contains(name), "photo set lacks \(name)")
        }
    }

    private func check(prefix: String) throws {
        let entries = try PhotoSet.entries().filter { $0.name.hasPrefix(prefix) }
        XCTAssertFalse(entries.isEmpty)
        for entry in entries {
            for (fit, mode) in [("cover", FitMode.cover), ("contain", FitMode.contain)] {
                let spec = CardSpec(width: PhotoSet.cardWidth, height: PhotoSet.cardHeight, fit: mode,
                                    background: RGB(PhotoSet.background))
                let card: Card
                do {
                    card = try ImageDecoder.makeCard(path: entry.path, spec: spec)
                } catch {
                    XCTFail("\(entry.name) (\(fit)): not decoded: \(error)")
                    continue
                }
                let (mean, block) = PhotoSet.difference(card, try entry.reference(fit))
                XCTAssertLessThanOrEqual(mean, Self.meanBound, String(
                    format: "%@ (%@): mean difference %.2f levels from PIL's card, bound %.1f", entry.name, fit, mean, Self.meanBound))
                XCTAssertLessThanOrEqual(block, Self.blockBound, String(
                    format: "%@ (%@): worst 8x8 block differs by %.1f levels, bound %.0f", entry.name, fit, block, Self.blockBound))
            }
        }
    }
}
