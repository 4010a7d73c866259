import CImaging
import CarouselEngine
import Foundation
import TestSupport
import XCTest
import CarouselPixels

/// Pictures, files and pixel checks the pixel tests share. Every test picture is made here,
/// with the real libraries (pixman to paint, libturbojpeg/libpng/libwebp/libexif to encode).
extension TestPictures {
    /// An opaque picture of vertical stripes, one colour each, equally wide; a8r8g8b8 with
    /// alpha 0xFF like the cards the decoder makes.
    package static func stripes(_ colours: [UInt32], width: Int, height: Int) -> PixelImage {
        let image = PixelImage(width: width, height: height, format: PIXMAN_a8r8g8b8)!
        for (i, colour) in colours.enumerated() {
            let left = width * i / colours.count, right = width * (i + 1) / colours.count
            pixman_fill(image.base.assumingMemoryBound(to: UInt32.self), Int32(image.stride / 4), 32,
                        Int32(left), 0, Int32(right - left), Int32(height), colour | 0xFF00_0000)
        }
        return image
    }

    /// 8x8 blocks of pseudo-random colours (fixed seed): a JPEG of it is mostly scan data.
    package static func noise(width: Int, height: Int) -> PixelImage {
        let image = PixelImage(width: width, height: height)!
        var state: UInt32 = 12345
        for y in stride(from: 0, to: height, by: 8) {
            for x in stride(from: 0, to: width, by: 8) {
                state = state &* 1_664_525 &+ 1_013_904_223
                pixman_fill(image.base.assumingMemoryBound(to: UInt32.self), Int32(image.stride / 4), 32,
                            Int32(x), Int32(y), Int32(min(8, width - x)), Int32(min(8, height - y)), state | 0xFF00_0000)
            }
        }
        return image
    }

    package static func solid(_ colour: UInt32, width: Int, height: Int) -> PixelImage {
        stripes([colour], width: width, height: height)
    }

    @discardableResult
    package static func writePNG(_ image: PixelImage, _ path: String) throws -> String {
        try PNGWriter.write(image.buffer, to: path)
        return path
    }

    /// A PNG with straight alpha, from a premultiplied-free BGRA description: every pixel `argb`.
    package static func writeTranslucentPNG(argb: UInt32, width: Int, height: Int, to path: String) throws {
        var pixels = [UInt32](repeating: argb, count: width * height) // B,G,R,A bytes in memory
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width); image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_BGRA)
        XCTAssertNotEqual(png_image_write_to_file(&image, path, 0, &pixels, Int32(width * 4), nil), 0)
    }

    package static func jpeg(_ image: PixelImage, quality: Int = 95, orientation: Int? = nil) throws -> [UInt8] {
        var bytes = try XCTUnwrap(JPEGEncoder.encode(image, quality: quality))
        if let orientation { bytes.insert(contentsOf: exifSegment(orientation: orientation), at: 2) }
        return bytes
    }

    /// An APP1 segment holding an EXIF block built by libexif with just the orientation tag.
    package static func exifSegment(orientation: Int) -> [UInt8] {
        let exif = exif_data_new()!
        defer { exif_data_unref(exif) }
        exif_data_set_byte_order(exif, EXIF_BYTE_ORDER_INTEL)
        let entry = exif_entry_new()!
        exif_content_add_entry(exif.pointee.ifd.0, entry)
        exif_entry_initialize(entry, EXIF_TAG_ORIENTATION)
        exif_set_short(entry.pointee.data, EXIF_BYTE_ORDER_INTEL, UInt16(orientation))
        exif_entry_unref(entry)
        var data: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt32 = 0
        exif_data_save_data(exif, &data, &size)
        defer { free(data) }
        let length = Int(size) + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + Array(UnsafeBufferPointer(start: data, count: Int(size)))
    }

    package static func webp(_ image: PixelImage, lossless: Bool = true) throws -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>? = nil
        let base = image.base.assumingMemoryBound(to: UInt8.self)
        let size = lossless
            ? WebPEncodeLosslessBGRA(base, Int32(image.width), Int32(image.height), Int32(image.stride), &output)
            : WebPEncodeBGRA(base, Int32(image.width), Int32(image.height), Int32(image.stride), 90, &output)
        defer { WebPFree(output) }
        XCTAssertGreaterThan(size, 0)
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    @discardableResult
    package static func write(_ bytes: [UInt8], _ path: String) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Colour checks with a per-channel tolerance.
package func assertColour(_ actual: UInt32, _ expected: UInt32, tolerance: Int = 2, _ what: String,
                  file: StaticString = #filePath, line: UInt = #line) {
    let channels = [16, 8, 0].map { shift in abs(Int((actual >> shift) & 0xFF) - Int((expected >> shift) & 0xFF)) }
    XCTAssert(channels.allSatisfy { $0 <= tolerance },
              "\(what): got #\(hex(actual & 0xFF_FFFF)), expected #\(hex(expected & 0xFF_FFFF)) ± \(tolerance)",
              file: file, line: line)
}

package func hex(_ v: UInt32) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 6 - s.count)) + s
}

/// `a` over a background at `opacity`, per channel (what a faded card must show).
package func blend(_ a: UInt32, over b: UInt32, opacity: Double) -> UInt32 {
    [16, 8, 0].reduce(UInt32(0)) { result, shift in
        let ca = Double((a >> shift) & 0xFF), cb = Double((b >> shift) & 0xFF)
        return result | (UInt32((ca * opacity + cb * (1 - opacity)).rounded()) << shift)
    }
}

/// A card source with fixed cards, for compositor tests independent of decoding.
package final class FixedCards: CardSource {
    package var cards: [Int: Card]
    package let background: RGB
    package private(set) var requests = 0
    package init(_ pictures: [Int: PixelImage], background: RGB = RGB(0x101010)) {
        self.background = background
        cards = pictures.mapValues { Card(picture: $0, background: background)! }
    }
    package func set(_ index: Int, _ picture: PixelImage) { cards[index] = Card(picture: picture, background: background) }
    package func cards(for layout: FrameLayout) -> [Int: Card] {
        requests += 1
        return cards.filter { index, _ in layout.cards.contains { $0.index == index } }
    }
}
