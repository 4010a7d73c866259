@testable import CarouselCore
import CarouselEngine
import Foundation
import XCTest
@testable import carouseld
@testable import CarouselPixels
import TestSupport
import CoreTestSupport
import PixelsTestSupport

/// Broken files made by the tests themselves: each is skipped with one log line naming the
/// path and the reason, the others still show, and nothing crashes.
final class BadInputTests: XCTestCase {
    var dir = ""
    var goodJPEG: [UInt8] = []

    override func setUpWithError() throws {
        dir = try TestPictures.temporaryDirectory(self)
        goodJPEG = try TestPictures.jpeg(TestPictures.stripes([0xE04030, 0x3060D0], width: 64, height: 48))
    }

    /// The reason a file is skipped, through the same two steps the daemon uses: the header
    /// probe (playlist check) and the full decode (image store).
    func skipReason(_ path: String, maxPixels: Int = 100_000_000) -> String? {
        do {
            _ = try ImageDecoder.probe(path: path, maxPixels: maxPixels)
            _ = try ImageDecoder.makeCard(path: path, spec: CardSpec(width: 32, height: 24, maxImagePixels: maxPixels))
            return nil
        } catch { return error.description }
    }

    func testZeroByteFile() throws {
        let path = try TestPictures.write([], "\(dir)/empty.jpg")
        XCTAssertEqual(skipReason(path), "file is empty (0 bytes)")
    }

    func testMissingAndUnreadableFiles() throws {
        XCTAssertEqual(skipReason("\(dir)/gone.jpg"), "file not found")
        try FileManager.default.createDirectory(atPath: "\(dir)/folder.jpg", withIntermediateDirectories: false)
        XCTAssertEqual(skipReason("\(dir)/folder.jpg"), "cannot read file (not a regular file)")
    }

    func testTruncatedJPEG() throws {
        let detailed = try TestPictures.jpeg(TestPictures.noise(width: 256, height: 192))
        let path = try TestPictures.write(Array(detailed.prefix(detailed.count * 2 / 3)), "\(dir)/cut.jpg")
        let reason = try XCTUnwrap(skipReason(path))
        XCTAssertTrue(reason.hasPrefix("truncated JPEG data"), reason)
        XCTAssertTrue(reason.contains("Premature end of JPEG file"), reason)
    }

    func testTruncatedPNG() throws {
        var png = try Array(Data(contentsOf: URL(fileURLWithPath:
            TestPictures.writePNG(TestPictures.stripes([0xE04030, 0x3060D0], width: 64, height: 48), "\(dir)/whole.png"))))
        png = Array(png.prefix(png.count - 30))
        let path = try TestPictures.write(png, "\(dir)/cut.png")
        let reason = try XCTUnwrap(skipReason(path))
        XCTAssertTrue(reason.hasPrefix("truncated PNG data") || reason.hasPrefix("corrupt PNG data"), reason)
    }

    func testCorruptJPEG() throws {
        // A valid header followed by markers where compressed data should be.
        var bytes = goodJPEG
        let scanStart = try XCTUnwrap(sosOffset(bytes)) + 20
        for i in stride(from: scanStart, to: bytes.count - 2, by: 2) { bytes[i] = 0xFF; bytes[i + 1] = 0xC8 }
        let path = try TestPictures.write(bytes, "\(dir)/corrupt.jpg")
        let reason = try XCTUnwrap(skipReason(path))
        XCTAssertTrue(reason.hasPrefix("corrupt JPEG data") || reason.hasPrefix("truncated JPEG data"), reason)
    }

    func testCorruptPNG() throws {
        var png = try Array(Data(contentsOf: URL(fileURLWithPath:
            TestPictures.writePNG(TestPictures.solid(0x3060D0, width: 64, height: 48), "\(dir)/whole.png"))))
        let idat = try XCTUnwrap(find(Array("IDAT".utf8), in: png))
        png[idat + 10] ^= 0xFF // damages the compressed stream
        let path = try TestPictures.write(png, "\(dir)/corrupt.png")
        let reason = try XCTUnwrap(skipReason(path))
        XCTAssertTrue(reason.hasPrefix("corrupt PNG data (IDAT: "), reason)
    }

    func testWrongExtensionIsJudgedByContent() throws {
        let text = try TestPictures.write(Array("holiday notes\n".utf8), "\(dir)/notes.jpg")
        XCTAssertEqual(skipReason(text), "not a JPEG, PNG or WebP image despite its .jpg extension (unrecognised content)")
        let jpegNamedPNG = try TestPictures.write(goodJPEG, "\(dir)/photo.png")
        XCTAssertNil(skipReason(jpegNamedPNG), "a JPEG named .png is decoded as the JPEG it is")
    }

    func testUnsupportedFormatIsNamed() throws {
        let gif = try TestPictures.write(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0], "\(dir)/anim.gif")
        XCTAssertEqual(skipReason(gif), "unsupported image format GIF; carouseld shows JPEG, PNG and WebP")
    }

    func testOversizedHeaderIsRefusedBeforeDecoding() throws {
        // The same JPEG with its frame header claiming 30000x30000 pixels.
        var bytes = goodJPEG
        let sof = try XCTUnwrap(find([0xFF, 0xC0], in: bytes))
        bytes[sof + 5] = 0x75; bytes[sof + 6] = 0x30 // height 30000
        bytes[sof + 7] = 0x75; bytes[sof + 8] = 0x30 // width 30000
        let path = try TestPictures.write(bytes, "\(dir)/huge.jpg")
        let expected = "header declares 30000x30000 = 900000000 pixels, more than max_image_pixels 100000000; refused before decoding"
        XCTAssertEqual(skipReason(path), expected)
        // Only the headers exist (up to the scan header, no pixel data): the refusal comes from
        // them alone, before any decode (a decode would have said "truncated").
        let headerOnly = try TestPictures.write(Array(bytes.prefix(try XCTUnwrap(sosOffset(bytes)) + 14)), "\(dir)/huge-header.jpg")
        XCTAssertEqual(skipReason(headerOnly), expected)
        // The cap is the configured one.
        let small = try TestPictures.write(goodJPEG, "\(dir)/small.jpg")
        XCTAssertEqual(skipReason(small, maxPixels: 1000), "header declares 64x48 = 3072 pixels, more than max_image_pixels 1000; refused before decoding")
    }

    /// Through the image store, as the daemon runs it: one warning per bad file with its path,
    /// good pictures still decoded, failures reported to the event loop.
    func testStoreSkipsEachBadFileWithOneLogLine() throws {
        let paths = [
            try TestPictures.write(goodJPEG, "\(dir)/0-good.jpg"),
            try TestPictures.write([], "\(dir)/1-empty.jpg"),
            try TestPictures.write(Array(goodJPEG.prefix(goodJPEG.count / 2)), "\(dir)/2-cut.jpg"),
            try TestPictures.write(Array("not a picture".utf8), "\(dir)/3-text.webp"),
            try TestPictures.write(goodJPEG, "\(dir)/4-good.jpg"),
        ]
        var update = ImageStore.Update()
        let lines = capturingLog {
            let store = ImageStore(paths: paths, spec: CardSpec(width: 32, height: 24))
            store.waitUntilLoaded(indices: Array(paths.indices))
            XCTAssertNil(store.failure(at: 0)); XCTAssertNil(store.failure(at: 4))
            XCTAssertEqual(store.failure(at: 1), .empty)
            update = store.drainReady()
        }
        XCTAssertEqual(Set(update.ready), [0, 4])
        XCTAssertEqual(Set(update.failed), [1, 2, 3])
        let warnings = lines.filter { $0.0 == .warning }.map(\.1)
        XCTAssertEqual(warnings.count, 3, "\(warnings)")
        XCTAssertTrue(warnings.contains("skipping \(paths[1]): file is empty (0 bytes)"), "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.hasPrefix("skipping \(paths[2]): truncated JPEG data") }, "\(warnings)")
        XCTAssertTrue(warnings.contains("skipping \(paths[3]): not a JPEG, PNG or WebP image despite its .webp extension (unrecognised content)"), "\(warnings)")
    }

    func testNoValidImageShowsPlainBackgroundAndSaysWhy() throws {
        let paths = [try TestPictures.write([], "\(dir)/a.jpg"), try TestPictures.write([1, 2, 3], "\(dir)/b.png")]
        var usable: [String] = ["sentinel"]
        let lines = capturingLog {
            usable = OfflineRenderer.usablePaths(paths, maxPixels: 100_000_000, source: dir)
        }
        XCTAssertEqual(usable, [])
        XCTAssertEqual(lines.count, 3, "one line per file and one saying why the screen is empty")
        XCTAssertEqual(lines.last?.1, "no valid image in \(dir) (none of its 2 picture files can be shown): showing the background only, page dots hidden")
        let renderer = try OfflineRenderer(config: CarouselConfig(), paths: usable, width: 64, height: 36)
        let frame = renderer.frame(at: 1)
        for y in 0..<36 { for x in 0..<64 { XCTAssertEqual(frame.pixel(x: x, y: y) & 0xFF_FFFF, 0x101010) } }
    }

    // MARK: - Byte helpers

    func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    func sosOffset(_ bytes: [UInt8]) -> Int? { find([0xFF, 0xDA], in: bytes) }
}
