@testable import CarouselPixels
import CImaging
import XCTest

/// `PixelTurn` against the EXIF definitions written out pixel by pixel.
final class PixelTurnTests: XCTestCase {
    /// The stored pixel (column, row) that shows at upright (x, y), for a stored w × h picture:
    /// EXIF's "row 0 is ..., column 0 is ..." per orientation, in whole pixels.
    func storedPixel(_ orientation: Int, x: Int, y: Int, w: Int, h: Int) -> (Int, Int) {
        switch orientation {
        case 1: return (x, y)
        case 2: return (w - 1 - x, y)
        case 3: return (w - 1 - x, h - 1 - y)
        case 4: return (x, h - 1 - y)
        case 5: return (y, x)
        case 6: return (y, h - 1 - x)
        case 7: return (w - 1 - y, h - 1 - x)
        default: return (w - 1 - y, x)
        }
    }

    func testEveryOrientationMatchesItsDefinition() throws {
        let (w, h) = (37, 23)
        let source = try XCTUnwrap(PixelImage(width: w, height: h, format: PIXMAN_a8r8g8b8))
        for y in 0..<h { for x in 0..<w { source.base.storeBytes(of: UInt32(y * 1000 + x), toByteOffset: y * source.stride + x * 4, as: UInt32.self) } }
        for orientation in ExifOrientation.allCases {
            let size = orientation.orientedSize(width: w, height: h)
            let target = try XCTUnwrap(PixelImage(width: size.width, height: size.height, format: PIXMAN_a8r8g8b8))
            PixelTurn(orientation.uprightToStored(width: Double(w), height: Double(h)))
                .copy(from: source.base, stride: source.stride, width: w, height: h, to: target.base, stride: target.stride,
                      rect: IntRect(x: 0, y: 0, width: size.width, height: size.height))
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let (sx, sy) = storedPixel(orientation.rawValue, x: x, y: y, w: w, h: h)
                    XCTAssertEqual(target.pixel(x: x, y: y), UInt32(sy * 1000 + sx), "orientation \(orientation.rawValue) at (\(x), \(y))")
                }
            }
        }
    }

    func testOnlyTheRectangleIsWritten() throws {
        let source = try XCTUnwrap(PixelImage(width: 8, height: 6, format: PIXMAN_a8r8g8b8))
        source.fill(0xFF11_2233)
        let target = try XCTUnwrap(PixelImage(width: 6, height: 8, format: PIXMAN_a8r8g8b8))
        target.fill(0xFF00_0000)
        PixelTurn(ExifOrientation.right.uprightToStored(width: 8, height: 6))
            .copy(from: source.base, stride: source.stride, width: 8, height: 6, to: target.base, stride: target.stride,
                  rect: IntRect(x: 1, y: 2, width: 3, height: 4))
        for y in 0..<8 {
            for x in 0..<6 {
                let inside = (1..<4).contains(x) && (2..<6).contains(y)
                XCTAssertEqual(target.pixel(x: x, y: y), inside ? 0xFF11_2233 : 0xFF00_0000, "(\(x), \(y))")
            }
        }
    }
}
