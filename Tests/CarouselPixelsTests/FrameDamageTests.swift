@testable import CarouselCore
import XCTest
@testable import CarouselPixels

/// The rectangle a Wayland commit damages: exactly where two frames differ.
final class FrameDamageTests: XCTestCase {
    private func frame(_ fill: UInt32) throws -> PixelImage {
        let image = try XCTUnwrap(PixelImage(width: 64, height: 40))
        image.fill(fill)
        return image
    }

    private func set(_ image: PixelImage, x: Int, y: Int, to value: UInt32) {
        image.base.storeBytes(of: value, toByteOffset: y * image.stride + x * 4, as: UInt32.self)
    }

    func testIdenticalFramesHaveNoDamage() throws {
        let a = try frame(0x101010), b = try frame(0x101010)
        XCTAssertNil(FrameDamage.changed(a.buffer, b.buffer))
        withExtendedLifetime((a, b)) {}
    }

    func testTheBoundingBoxOfTheChangedPixels() throws {
        let old = try frame(0x101010), new = try frame(0x101010)
        set(new, x: 10, y: 5, to: 0xFFFFFF)
        set(new, x: 30, y: 20, to: 0xFF0000)
        set(new, x: 12, y: 33, to: 0x00FF00)
        XCTAssertEqual(FrameDamage.changed(old.buffer, new.buffer), .init(x: 10, y: 5, width: 21, height: 29))
        withExtendedLifetime((old, new)) {}
    }

    func testAFullChangeIsTheWholeFrame() throws {
        let a = try frame(0), b = try frame(1)
        XCTAssertEqual(FrameDamage.changed(a.buffer, b.buffer), .init(x: 0, y: 0, width: 64, height: 40))
        withExtendedLifetime((a, b)) {}
    }

    func testEdgesAreFound() throws {
        let old = try frame(0), new = try frame(0)
        set(new, x: 63, y: 39, to: 7)
        XCTAssertEqual(FrameDamage.changed(old.buffer, new.buffer), .init(x: 63, y: 39, width: 1, height: 1))
        withExtendedLifetime((old, new)) {}
    }
}
