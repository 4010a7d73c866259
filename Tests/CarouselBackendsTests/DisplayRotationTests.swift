@testable import CarouselBackends
import XCTest

/// Software rotation must put each pixel where DRM_MODE_ROTATE_* (counter-clockwise) would.
final class DisplayRotationTests: XCTestCase {
    /// A 3x2 picture rotated onto a screen; returns the screen's rows as pixel values.
    private func rotate(_ degrees: Int) throws -> [[UInt32]] {
        let (w, h) = (3, 2)
        let rotator = try XCTUnwrap(SoftwareRotator(degrees: degrees, width: w, height: h))
        // Picture:  1 2 3
        //           4 5 6
        for y in 0..<h {
            for x in 0..<w {
                let buffer = rotator.buffer
                buffer.base.storeBytes(of: UInt32(y * w + x + 1), toByteOffset: y * buffer.stride + x * 4, as: UInt32.self)
            }
        }
        let (sw, sh) = degrees == 180 ? (w, h) : (h, w)
        var screen = [UInt32](repeating: 0, count: sw * sh)
        screen.withUnsafeMutableBytes { rotator.copy(into: $0.baseAddress!, width: sw, height: sh, stride: sw * 4) }
        return (0..<sh).map { Array(screen[$0 * sw..<($0 + 1) * sw]) }
    }

    func testQuarterTurnCounterClockwise() throws {
        XCTAssertEqual(try rotate(90), [[3, 6], [2, 5], [1, 4]])
    }

    func testHalfTurn() throws {
        XCTAssertEqual(try rotate(180), [[6, 5, 4], [3, 2, 1]])
    }

    func testThreeQuarterTurn() throws {
        XCTAssertEqual(try rotate(270), [[4, 1], [5, 2], [6, 3]])
    }

    func testNoRotatorForZeroOrOddAngles() {
        XCTAssertNil(SoftwareRotator(degrees: 0, width: 4, height: 4))
        XCTAssertNil(SoftwareRotator(degrees: 45, width: 4, height: 4))
    }
}
