@testable import CarouselCore
import CarouselEngine
import Foundation
import XCTest
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// JPEG and PNG rows read straight from the open file (pread, 64 KB at a time) instead of a
/// copy of the whole file: the same pixels as a decode from memory, and a file that changes
/// under an open decoder is a skip reason, never a crash or a read past the checked size.
final class ImageFileStreamTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws { dir = try TestPictures.temporaryDirectory(self) }

    /// Pseudo-random pixels (fixed seed), so the files are several of the decoders' 64 KB reads.
    func grain(width: Int, height: Int) throws -> PixelImage {
        let image = try XCTUnwrap(PixelImage(width: width, height: height))
        let bits = image.base.assumingMemoryBound(to: UInt32.self)
        var state: UInt32 = 2024
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                bits[y * image.stride / 4 + x] = 0xFF00_0000 | state >> 8
            }
        }
        return image
    }

    func noiseJPEG() throws -> [UInt8] { try TestPictures.jpeg(try grain(width: 640, height: 480)) }

    func largestDifference(_ a: Card, _ b: Card) -> Int {
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                for shift in [0, 8, 16, 24] { worst = max(worst, abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF))) }
            }
        }
        return worst
    }

    func testStreamedJPEGLargerThanOneReadMatchesDecodeFromMemory() throws {
        let bytes = try noiseJPEG()
        XCTAssertGreaterThan(bytes.count, 3 * 64 * 1024, "the file needs several reads")
        let path = try TestPictures.write(bytes, "\(dir)/noise.jpg")
        let spec = CardSpec(width: 320, height: 240)
        let streamed = try ImageDecoder.makeCard(path: path, spec: spec)
        let whole = try bytes.withUnsafeBytes { raw in
            try JPEGDecoder.decode(raw, header: try JPEGDecoder.header(raw), neededScale: 0.5)
        }
        XCTAssertLessThanOrEqual(largestDifference(streamed, try CardScaler.makeCard(from: whole, spec: spec)), 1)
    }

    func testJPEGTruncatedAfterOpenIsTruncated() throws {
        let bytes = try noiseJPEG()
        let path = try TestPictures.write(bytes, "\(dir)/shrinks.jpg")
        let file = try ImageFile.Opened(path)
        let header = try file.read().withUnsafeBytes { try JPEGDecoder.header($0) }
        XCTAssertEqual(truncate(path, off_t(bytes.count / 2)), 0)
        XCTAssertThrowsError(try JPEGRowDecoder.open(file, header: header, neededScale: 1).map {
            try CardScaler.makeCard(from: $0, spec: CardSpec(width: 64, height: 48))
        }) { error in
            XCTAssertTrue((error as? ImageError)?.description.hasPrefix("truncated JPEG data") == true, "\(error)")
        }
    }

    func testJPEGGrownAfterOpenIsReadOnlyToTheCheckedSize() throws {
        // Opened while cut short; the rest arrives before the decode: only the size checked at
        // open is read, so the file is still the truncated one.
        let bytes = try noiseJPEG()
        let path = try TestPictures.write(Array(bytes.prefix(bytes.count / 2)), "\(dir)/grows.jpg")
        let file = try ImageFile.Opened(path)
        let header = try file.read().withUnsafeBytes { try JPEGDecoder.header($0) }
        _ = try TestPictures.write(bytes, path)
        XCTAssertThrowsError(try JPEGRowDecoder.open(file, header: header, neededScale: 1).map {
            try CardScaler.makeCard(from: $0, spec: CardSpec(width: 64, height: 48))
        }) { error in
            XCTAssertTrue((error as? ImageError)?.description.hasPrefix("truncated JPEG data") == true, "\(error)")
        }
    }

    func testPNGTruncatedAfterOpenIsTruncated() throws {
        let path = try TestPictures.writePNG(try grain(width: 400, height: 300), "\(dir)/shrinks.png")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertGreaterThan(size, 3 * 64 * 1024, "the file needs several reads")
        let file = try ImageFile.Opened(path)
        XCTAssertEqual(truncate(path, off_t(size / 2)), 0)
        XCTAssertThrowsError(try CardScaler.makeCard(from: PNGRowDecoder(file, orientation: .up),
                                                     spec: CardSpec(width: 64, height: 48))) { error in
            XCTAssertTrue((error as? ImageError)?.description.hasPrefix("truncated PNG data") == true, "\(error)")
        }
    }

    func testStreamedPNGMatchesDecodeFromMemory() throws {
        let picture = try grain(width: 400, height: 300)
        let path = try TestPictures.writePNG(picture, "\(dir)/noise.png")
        let spec = CardSpec(width: 400, height: 300)
        let card = try ImageDecoder.makeCard(path: path, spec: spec)
        let reference = try CardScaler.makeCard(from: DecodedImage(pixels: picture, orientation: .up, hasAlpha: false), spec: spec)
        XCTAssertLessThanOrEqual(largestDifference(card, reference), 1)
    }
}
