import CarouselEngine
import CImaging
import XCTest
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// Decoding through the real libraries and the one pixman resample: fit modes, EXIF
/// orientation, JPEG DCT scaling, alpha over the background.
final class DecodeTests: XCTestCase {
    let background = RGB(0x101010)
    let a: UInt32 = 0xE04030, b: UInt32 = 0x30A050, c: UInt32 = 0x3060D0, d: UInt32 = 0xE0B020

    func card(_ path: String, _ width: Int, _ height: Int, fit: FitMode = .cover) throws -> Card {
        try ImageDecoder.makeCard(path: path, spec: CardSpec(width: width, height: height, fit: fit, background: background))
    }

    func testCoverCropsTheMiddleOfAWidePicture() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let path = try TestPictures.writePNG(TestPictures.stripes([a, b, c, d], width: 800, height: 200), "\(dir)/wide.png")
        // Cover: scale 0.5, 400x100, centred: the card shows image x 300..<500, i.e. stripes b and c.
        let cover = try card(path, 100, 100)
        assertColour(cover.pixel(x: 20, y: 50), b, "left half shows the second stripe")
        assertColour(cover.pixel(x: 80, y: 50), c, "right half shows the third stripe")
        for y in [0, 99] { XCTAssertNotEqual(cover.pixel(x: 20, y: y) & 0xFF_FFFF, background.value, "cover leaves no bar at row \(y)") }
    }

    func testContainLetterboxesInTheBackgroundColour() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let path = try TestPictures.writePNG(TestPictures.stripes([a, b, c, d], width: 800, height: 200), "\(dir)/wide.png")
        // Contain: scale 0.125, 100x25 centred vertically: rows 37.5..<62.5, bars above and below.
        let contain = try card(path, 100, 100, fit: .contain)
        assertColour(contain.pixel(x: 50, y: 10), background.value, "top bar")
        assertColour(contain.pixel(x: 50, y: 36), background.value, "last bar row above")
        assertColour(contain.pixel(x: 50, y: 90), background.value, "bottom bar")
        assertColour(contain.pixel(x: 50, y: 63), background.value, "first bar row below")
        for (x, colour) in [(12, a), (37, b), (62, c), (87, d)] {
            assertColour(contain.pixel(x: x, y: 50), colour, tolerance: 3, "stripe at x \(x)")
        }
    }

    func testFitPlacementGeometry() {
        let cover = FitPlacement(imageWidth: 4000, imageHeight: 3000, cardWidth: 1536, cardHeight: 864, fit: .cover)
        XCTAssertEqual(cover.scale, 0.384, accuracy: 1e-12)
        XCTAssertEqual(cover.width, 1536, accuracy: 1e-9)
        XCTAssertEqual(cover.height, 1152, accuracy: 1e-9)
        XCTAssertEqual(cover.y, -144, accuracy: 1e-9)
        let contain = FitPlacement(imageWidth: 4000, imageHeight: 3000, cardWidth: 1536, cardHeight: 864, fit: .contain)
        XCTAssertEqual(contain.scale, 0.288, accuracy: 1e-12)
        XCTAssertEqual(contain.x, (1536 - 1152) / 2, accuracy: 1e-9)
        let bars = contain.coveredPixels(cardWidth: 1536, cardHeight: 864)
        XCTAssertEqual(bars.x, 192); XCTAssertEqual(bars.width, 1152); XCTAssertEqual(bars.height, 864)
    }

    func testJPEGScaleIsTheSmallestThatStillCoversTheCard() {
        let all = JPEGDecoder.availableScales
        XCTAssertTrue(all.contains(JPEGScale(num: 1, denom: 8)), "libjpeg-turbo offers 1/8")
        XCTAssertEqual(JPEGScale.choose(width: 4000, height: 3000, needed: 0.384, available: all), JPEGScale(num: 1, denom: 2))
        XCTAssertEqual(JPEGScale.choose(width: 4000, height: 3000, needed: 0.25, available: all), JPEGScale(num: 1, denom: 4))
        XCTAssertEqual(JPEGScale.choose(width: 4000, height: 3000, needed: 0.251, available: all), JPEGScale(num: 1, denom: 2))
        XCTAssertEqual(JPEGScale.choose(width: 4000, height: 3000, needed: 0.1, available: all), JPEGScale(num: 1, denom: 8))
        XCTAssertEqual(JPEGScale.choose(width: 400, height: 300, needed: 1.5, available: all), JPEGScale(num: 1, denom: 1))
        // TJSCALED rounds up: 1001 px at 1/8 is 126 px, which covers a need of 125.1.
        XCTAssertEqual(JPEGScale.choose(width: 1001, height: 1001, needed: 0.125, available: all), JPEGScale(num: 1, denom: 8))
    }

    func testJPEGIsDecodedScaledBeforeTheResample() throws {
        let picture = TestPictures.stripes([a, c], width: 1600, height: 1200)
        let bytes = try TestPictures.jpeg(picture)
        let decoded = try bytes.withUnsafeBytes { raw in
            let header = try JPEGDecoder.header(raw)
            XCTAssertEqual(header.width, 1600); XCTAssertEqual(header.height, 1200)
            return try JPEGDecoder.decode(raw, header: header, neededScale: 0.125)
        }
        XCTAssertEqual(decoded.pixels.width, 200, "1/8 scaled decode")
        XCTAssertEqual(decoded.pixels.height, 150)
        assertColour(decoded.pixels.pixel(x: 50, y: 75), a, tolerance: 8, "left stripe survives the scaled decode")
        assertColour(decoded.pixels.pixel(x: 150, y: 75), c, tolerance: 8, "right stripe")
    }

    /// Quadrants red/blue over green/yellow, stored with each EXIF orientation: the card must
    /// show them as the EXIF definitions say (expectations written out by hand from them).
    func testEXIFOrientationIsApplied() throws {
        let (r, bl, g, y): (UInt32, UInt32, UInt32, UInt32) = (0xE03030, 0x3040E0, 0x30C040, 0xE0D030)
        let raw = PixelImage(width: 160, height: 80)!
        for (x, yy, colour) in [(0, 0, r), (80, 0, bl), (0, 40, g), (80, 40, y)] {
            pixman_fill(raw.base.assumingMemoryBound(to: UInt32.self), Int32(raw.stride / 4), 32,
                        Int32(x), Int32(yy), 80, 40, colour | 0xFF00_0000)
        }
        // Upright quadrants (top-left, top-right, bottom-left, bottom-right) per orientation.
        let expected: [Int: [UInt32]] = [
            1: [r, bl, g, y], 2: [bl, r, y, g], 3: [y, g, bl, r], 4: [g, y, r, bl],
            5: [r, g, bl, y], 6: [g, r, y, bl], 7: [y, bl, g, r], 8: [bl, y, r, g],
        ]
        let dir = try TestPictures.temporaryDirectory(self)
        for orientation in 1...8 {
            let path = try TestPictures.write(TestPictures.jpeg(raw, orientation: orientation), "\(dir)/o\(orientation).jpg")
            let header = try ImageDecoder.probe(path: path, maxPixels: 1_000_000)
            XCTAssertEqual(header.orientation.rawValue, orientation, "libexif reads the tag back")
            let (w, h) = orientation >= 5 ? (80, 160) : (160, 80)
            let card = try card(path, w, h)
            let probes = [(w / 4, h / 4), (w * 3 / 4, h / 4), (w / 4, h * 3 / 4), (w * 3 / 4, h * 3 / 4)]
            for (i, (x, yy)) in probes.enumerated() {
                assertColour(card.pixel(x: x, y: yy), expected[orientation]![i], tolerance: 12,
                             "orientation \(orientation), quadrant \(i)")
            }
        }
    }

    func testPNGAlphaIsCompositedOverTheBackground() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let opaque = "\(dir)/opaque.png", clear = "\(dir)/clear.png", half = "\(dir)/half.png"
        try TestPictures.writeTranslucentPNG(argb: 0xFFE0_4030, width: 20, height: 20, to: opaque)
        try TestPictures.writeTranslucentPNG(argb: 0x00E0_4030, width: 20, height: 20, to: clear)
        try TestPictures.writeTranslucentPNG(argb: 0x80E0_4030, width: 20, height: 20, to: half)
        assertColour(try card(opaque, 10, 10).pixel(x: 5, y: 5), 0xE04030, "opaque pixels keep their colour")
        assertColour(try card(clear, 10, 10).pixel(x: 5, y: 5), background.value, "transparent pixels show the background")
        let mixed = try card(half, 10, 10).pixel(x: 5, y: 5)
        XCTAssert((0x11...0xDF).contains(Int((mixed >> 16) & 0xFF)), "half alpha lies between background and colour")
    }

    func testWebPAlphaIsCompositedOverTheBackground() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let picture = TestPictures.solid(0x30A050, width: 40, height: 20)
        // Right half fully transparent: alpha 0 in a8r8g8b8 (WebP's encoder takes straight BGRA).
        let source = PixelImage(width: 40, height: 20, format: PIXMAN_a8r8g8b8)!
        pixman_image_composite32(PIXMAN_OP_SRC, picture.pixman, nil, source.pixman, 0, 0, 0, 0, 0, 0, 40, 20)
        pixman_fill(source.base.assumingMemoryBound(to: UInt32.self), Int32(source.stride / 4), 32, 20, 0, 20, 20, 0)
        let path = try TestPictures.write(TestPictures.webp(source), "\(dir)/alpha.webp")
        let card = try card(path, 40, 20)
        assertColour(card.pixel(x: 5, y: 10), 0x30A050, "opaque half")
        assertColour(card.pixel(x: 35, y: 10), background.value, "transparent half shows the background")
    }

    func testLossyWebPDecodes() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let path = try TestPictures.write(TestPictures.webp(TestPictures.stripes([a, c], width: 200, height: 100), lossless: false),
                                          "\(dir)/lossy.webp")
        let card = try card(path, 100, 50)
        assertColour(card.pixel(x: 20, y: 25), a, tolerance: 10, "left stripe")
        assertColour(card.pixel(x: 80, y: 25), c, tolerance: 10, "right stripe")
    }

    /// A WebP larger than its card is decoded straight to the card's size by libwebp's
    /// rescaler: no full-size buffer, and the card still shows the right picture.
    func testLargeWebPIsDecodedAtCardSize() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        for lossless in [true, false] {
            let path = try TestPictures.write(TestPictures.webp(TestPictures.stripes([a, c], width: 800, height: 400),
                                                                lossless: lossless), "\(dir)/big-\(lossless).webp")
            let spec = CardSpec(width: 100, height: 50)
            guard case .whole(let decoded) = try ImageDecoder.decode(path: path, spec: spec) else {
                return XCTFail("a WebP is decoded whole")
            }
            XCTAssertEqual([decoded.pixels.width, decoded.pixels.height], [100, 50], "decoded at the card's size, lossless \(lossless)")
            let card = try ImageDecoder.makeCard(path: path, spec: spec)
            assertColour(card.pixel(x: 20, y: 25), a, tolerance: 10, "left stripe")
            assertColour(card.pixel(x: 80, y: 25), c, tolerance: 10, "right stripe")
        }
        // Cover on a card of another shape: scaled to cover it, never below the card.
        let wide = try TestPictures.write(TestPictures.webp(TestPictures.stripes([a, c], width: 800, height: 400)), "\(dir)/wide.webp")
        guard case .whole(let cover) = try ImageDecoder.decode(path: wide, spec: CardSpec(width: 60, height: 60, fit: .cover)) else {
            return XCTFail("a WebP is decoded whole")
        }
        // Only the middle the card shows (plus a filter margin) is decoded, not all 120x60.
        XCTAssertEqual(cover.pixels.height, 60)
        XCTAssertTrue((60..<120).contains(cover.pixels.width), "decoded \(cover.pixels.width) wide")
        let card = try ImageDecoder.makeCard(path: wide, spec: CardSpec(width: 60, height: 60, fit: .cover))
        assertColour(card.pixel(x: 10, y: 30), a, tolerance: 10, "left of the middle")
        assertColour(card.pixel(x: 50, y: 30), c, tolerance: 10, "right of the middle")
    }

    func testFormatIsDetectedByContentNotName() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let path = try TestPictures.writePNG(TestPictures.solid(b, width: 30, height: 30), "\(dir)/actually-a-png.jpg")
        assertColour(try card(path, 10, 10).pixel(x: 5, y: 5), b, "a PNG named .jpg still shows")
    }
}
