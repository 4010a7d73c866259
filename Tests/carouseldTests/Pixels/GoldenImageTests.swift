@testable import CarouselCore
import CarouselEngine
import CImaging
import Foundation
import XCTest
@testable import carouseld
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// Rendered frames compared with committed pictures (reviewed by eye when made), within a
/// small per-channel tolerance. Regenerate with CAROUSELD_WRITE_GOLDEN=1 after a deliberate
/// change, look at the new pictures, and commit them.
final class GoldenImageTests: XCTestCase {
    /// Tests/Golden, outside the test target so SwiftPM does not treat the pictures as sources.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Golden").path

    /// A moving frame: faded, scaled side cards around a slightly scaled centre card, from
    /// decoded pictures (PNG with a gradient, JPEG, WebP), so decode, resample and compose all show.
    func testMovingCarouselFrame() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let gradient = PixelImage(width: 240, height: 135)!
        for row in 0..<135 {
            let v = UInt32(row * 255 / 134)
            pixman_fill(gradient.base.assumingMemoryBound(to: UInt32.self), Int32(gradient.stride / 4), 32,
                        0, Int32(row), 240, 1, 0xFF00_0000 | (v << 16) | (0x40 << 8) | (255 - v))
        }
        let paths = [
            try TestPictures.writePNG(gradient, "\(dir)/a.png"),
            try TestPictures.write(TestPictures.jpeg(TestPictures.stripes([0xE0B020, 0x2080E0, 0xE04080], width: 300, height: 200)), "\(dir)/b.jpg"),
            try TestPictures.write(TestPictures.webp(TestPictures.stripes([0x30A050, 0xF0F0F0], width: 200, height: 300)), "\(dir)/c.webp"),
        ]
        var config = CarouselConfig()
        config.dots.size = 8; config.dots.spacing = 8; config.dots.margin = 12
        let store = ImageStore(paths: paths, config: config, viewport: Size(width: 320, height: 180))
        let cards = [
            CardLayout(index: 2, x: -110, y: 35, width: 160, height: 100, scale: 0.9, opacity: 0.7),
            CardLayout(index: 1, x: 250, y: 35, width: 160, height: 100, scale: 0.85, opacity: 0.6),
            CardLayout(index: 0, x: 80.25, y: 35, width: 160, height: 100, scale: 0.95, opacity: 0.95),
        ]
        let layout = FrameLayout(viewport: Size(width: 320, height: 180), cards: cards, selectedIndex: 0,
                                 itemCount: 3, pageCount: 3, selectedPage: 0, isMoving: true)
        store.waitUntilLoaded(for: layout)
        let frame = PixelImage(width: 320, height: 180)!
        XCTAssertTrue(Compositor(config: config, store: store).compose(layout, into: frame.buffer))
        try compare(frame, golden: "moving-frame.png")
    }

    func compare(_ frame: PixelImage, golden name: String, tolerance: Int = 3) throws {
        let path = "\(Self.directory)/\(name)"
        if ProcessInfo.processInfo.environment["CAROUSELD_WRITE_GOLDEN"] != nil {
            try FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
            try PNGWriter.write(frame.buffer, to: path)
        }
        let golden = try XCTUnwrap(try? ImageFile.read(path), "missing golden picture \(path)")
        let expected = try golden.withUnsafeBytes { raw in try PNGDecoder.decode(raw, background: RGB(0)).pixels }
        XCTAssertEqual(expected.width, frame.width); XCTAssertEqual(expected.height, frame.height)
        var worst = 0, worstAt = (0, 0)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let actual = frame.pixel(x: x, y: y)
                let p = expected.base + y * expected.stride + x * 3 // B, G, R
                let diffs = [abs(Int(p.load(as: UInt8.self)) - Int(actual & 0xFF)),
                             abs(Int(p.load(fromByteOffset: 1, as: UInt8.self)) - Int((actual >> 8) & 0xFF)),
                             abs(Int(p.load(fromByteOffset: 2, as: UInt8.self)) - Int((actual >> 16) & 0xFF))]
                if let d = diffs.max(), d > worst { worst = d; worstAt = (x, y) }
            }
        }
        XCTAssertLessThanOrEqual(worst, tolerance, "\(name): largest channel difference \(worst) at \(worstAt)")
    }
}
