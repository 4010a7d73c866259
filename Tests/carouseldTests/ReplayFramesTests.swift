@testable import CarouselBackends
@testable import CarouselConfig
@testable import CarouselCore
import XCTest
import CarouselEngine
@testable import carouseld
@testable import CarouselPixels
import TestSupport
import CoreTestSupport
import PixelsTestSupport

/// `carouseld replay --config DIR --frames OUT`: the config directory's settings and pictures,
/// and a PNG for every 60 Hz frame that shows what the panel would have shown.
final class ReplayFramesTests: XCTestCase {
    private let colours: [UInt32] = [0xD02020, 0x20B040, 0x2040D0]  // red, green, blue pictures

    private func configDirectory() throws -> ConfigTestDirectory {
        let dir = try ConfigTestDirectory()
        try dir.write("carouseld.conf", "interval = 0\ncard_width = \"60%\"\n")
        try dir.mkdir("images")
        for (i, colour) in colours.enumerated() {
            try TestPictures.writePNG(TestPictures.solid(colour, width: 64, height: 48), dir.url("images/\(i + 1).png"))
        }
        return dir
    }

    /// 0xRRGGBB at (x, y) of a PNG frame, read back with libpng.
    private func pixel(_ path: String, x: Int, y: Int) throws -> UInt32 {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let image = try bytes.withUnsafeBytes { try PNGDecoder.decode($0, background: RGB(0)).pixels }
        let p = image.base.advanced(by: y * image.stride + x * 3).assumingMemoryBound(to: UInt8.self)
        return UInt32(p[2]) << 16 | UInt32(p[1]) << 8 | UInt32(p[0])  // B, G, R in memory
    }

    func testFramesShowTheSwipeFromTheFirstPictureToTheSecond() throws {
        let dir = try configDirectory()
        let out = try TestPictures.temporaryDirectory(self)
        let loaded = try ConfigLoader.load(directory: dir.path)
        XCTAssertEqual(loaded.config.cardWidth, .fraction(0.6), "the replay uses the directory's settings")
        let screen = Size(width: 320, height: 200)
        let frames = try ReplayFrames(config: loaded.config, shell: loaded.shell, paths: loaded.playlist.map(\.path), screen: screen, directory: out)
        var b = RecordingBuilder()
        b.drag(from: (70, 50), to: (40, 50), start: 0, duration: 0.05, interval: 0.01)  // a fling to the left
        let replay = Replay(config: loaded.config, screen: screen, itemCount: loaded.playlist.count)
        let lines = try replay.lines(path: b.write(named: "frames"), frames: frames.write)

        let settled = try XCTUnwrap(lines.last { $0.contains("settled") }, "\(lines)")
        XCTAssert(settled.contains("\"index\":1"), settled)
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        XCTAssertEqual(files.count, frames.written)
        XCTAssertEqual(files.first, "frame-0000.000.png")
        XCTAssertEqual(files[1], "frame-0000.017.png", "one frame every 1/60 s")
        XCTAssertGreaterThan(files.count, 20, "frames until the strip has settled")
        XCTAssertEqual(try pixel("\(out)/\(files.first!)", x: 160, y: 100), colours[0])
        XCTAssertEqual(try pixel("\(out)/\(files.last!)", x: 160, y: 100), colours[1])
        // Mid-way the strip is between the two: the centre shows neither picture whole.
        let middle = try files.map { try pixel("\(out)/\($0)", x: 160, y: 100) }
        XCTAssert(middle.contains { $0 != colours[0] && $0 != colours[1] }, "the frames in between show motion")
    }
}
