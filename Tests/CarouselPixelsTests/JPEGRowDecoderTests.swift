@testable import CarouselCore
import CarouselEngine
import CImaging
import XCTest
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// JPEG cards made a band of decoded rows at a time (the daemon's path) against the same card
/// made from one whole-picture decode by libturbojpeg.
final class JPEGRowDecoderTests: XCTestCase {
    /// Colour ramps with a hard-edged block: smooth areas and sharp colour edges.
    func picture(width: Int, height: Int) -> PixelImage {
        let image = PixelImage(width: width, height: height)!
        let bits = image.base.assumingMemoryBound(to: UInt32.self)
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt32(x * 255 / (width - 1)), g = UInt32(y * 255 / (height - 1))
                let b = UInt32(255 - (x + y) * 255 / (width + height))
                bits[y * image.stride / 4 + x] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
        pixman_fill(bits, Int32(image.stride / 4), 32, Int32(width / 3), Int32(height / 3),
                    Int32(width / 4), Int32(height / 5), 0xFFE0_4080)
        return image
    }

    func file(_ bytes: [UInt8]) throws -> ImageFile.Opened {
        let path = try TestPictures.write(bytes, "\(try TestPictures.temporaryDirectory(self))/p.jpg")
        return try ImageFile.Opened(path)
    }

    /// The card made from streamed rows and the card made from a whole decode.
    func cards(_ bytes: [UInt8], _ spec: CardSpec, bandRows: Int) throws -> (streamed: Card, whole: Card) {
        let file = try file(bytes)
        let header = try file.read().withUnsafeBytes { try JPEGDecoder.header($0) }
        let upright = header.upright
        let needed = FitPlacement(imageWidth: upright.width, imageHeight: upright.height,
                                  cardWidth: spec.width, cardHeight: spec.height, fit: spec.fit).scale
        let rows = try XCTUnwrap(try JPEGRowDecoder.open(file, header: header, neededScale: needed))
        let whole = try file.read().withUnsafeBytes { try JPEGDecoder.decode($0, header: header, neededScale: needed) }
        return (try CardScaler.makeCard(from: rows, spec: spec, bandRows: bandRows), try CardScaler.makeCard(from: whole, spec: spec))
    }

    /// Largest channel difference between two cards, and where.
    func difference(_ a: Card, _ b: Card) -> (Int, x: Int, y: Int) {
        var worst = (0, x: 0, y: 0)
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                let d = ([0, 8, 16, 24] as [UInt32]).map { (shift: UInt32) -> Int in abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF)) }.max()!
                if d > worst.0 { worst = (d, x, y) }
            }
        }
        return worst
    }

    func testStreamedCardEqualsWholeDecodeCard() throws {
        let image = picture(width: 300, height: 200)
        let specs = [CardSpec(width: 160, height: 100),             // cover, DCT 1/1, bilinear
                     CardSpec(width: 61, height: 47, fit: .contain), // letterboxed
                     CardSpec(width: 70, height: 40),               // DCT 1/4
                     CardSpec(width: 20, height: 14)]               // beyond 1/8: the convolution filter
        for subsampling in [TJSAMP_420, TJSAMP_444, TJSAMP_422, TJSAMP_440, TJSAMP_GRAY] {
            for orientation in 1...8 {
                var bytes = try XCTUnwrap(JPEGEncoder.encode(image, quality: 95, subsampling: subsampling))
                bytes.insert(contentsOf: TestPictures.exifSegment(orientation: orientation), at: 2)
                for spec in specs {
                    for bandRows in [10, 64] {
                        let made = try cards(bytes, spec, bandRows: bandRows)
                        let diff = difference(made.streamed, made.whole)
                        XCTAssertLessThanOrEqual(diff.0, 1, "subsampling \(subsampling.rawValue), orientation \(orientation), "
                                                 + "\(spec.width)x\(spec.height), \(bandRows)-row bands: \(diff)")
                    }
                }
            }
        }
    }

    func testCroppedRowsAreStillCheckedForDamage() throws {
        // A wide picture on a square card: cover shows only the middle columns but every row;
        // a tall one: cover skips the top and bottom rows, where this file is cut off.
        let tall = try XCTUnwrap(JPEGEncoder.encode(TestPictures.noise(width: 64, height: 512), quality: 95))
        let path = try TestPictures.write(Array(tall.prefix(tall.count * 9 / 10)), "\(try TestPictures.temporaryDirectory(self))/cut.jpg")
        XCTAssertThrowsError(try ImageDecoder.makeCard(path: path, spec: CardSpec(width: 64, height: 64))) { error in
            XCTAssertTrue((error as? ImageError)?.description.hasPrefix("truncated JPEG data") == true, "\(error)")
        }
    }

    func testCorruptionInSkippedRowsIsFound() throws {
        // Cover on a tall picture skips its top rows: a damaged scan there still skips the file.
        var tall = try XCTUnwrap(JPEGEncoder.encode(TestPictures.noise(width: 64, height: 512), quality: 95))
        let scan = try XCTUnwrap((0..<tall.count - 1).first { tall[$0] == 0xFF && tall[$0 + 1] == 0xDA })
        for i in stride(from: scan + 40, to: scan + 60, by: 2) { tall[i] = 0xFF; tall[i + 1] = 0xD3 } // stray RST markers
        let path = try TestPictures.write(tall, "\(try TestPictures.temporaryDirectory(self))/damaged.jpg")
        XCTAssertThrowsError(try ImageDecoder.makeCard(path: path, spec: CardSpec(width: 64, height: 64))) { error in
            XCTAssertTrue((error as? ImageError)?.description.contains("JPEG data") == true, "\(error)")
        }
    }

    func testCMYKJPEGIsDecodedByTheRowDecoder() throws {
        // libjpeg gives CMYK rows, which the shim turns into BGRA. libjpeg writes an Adobe
        // marker with CMYK, so the stored inks count as inverted: R = C'·K'/255 per channel.
        let width = 40, height = 30, ink = 100
        let cmyk = [UInt8](repeating: UInt8(ink), count: width * height * 4)
        let handle = try XCTUnwrap(tjInitCompress())
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        XCTAssertEqual(tjCompress2(handle, cmyk, Int32(width), 0, Int32(height), Int32(TJPF_CMYK.rawValue), &output, &size,
                                   Int32(TJSAMP_444.rawValue), 95, 0), 0)
        let bytes = Array(UnsafeBufferPointer(start: output, count: Int(size)))
        tjFree(output)
        let file = try file(bytes)
        let header = try file.read().withUnsafeBytes { try JPEGDecoder.header($0) }
        XCTAssertNotNil(try JPEGRowDecoder.open(file, header: header, neededScale: 1))
        let path = try TestPictures.write(bytes, "\(try TestPictures.temporaryDirectory(self))/cmyk.jpg")
        let card = try ImageDecoder.makeCard(path: path, spec: CardSpec(width: 40, height: 30))
        let level = UInt32((ink * ink + 127) / 255)
        assertColour(card.pixel(x: 20, y: 15), level << 16 | level << 8 | level, "CMYK \(ink) everywhere")
    }
}
