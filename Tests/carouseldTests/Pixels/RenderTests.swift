@testable import CarouselCore
import CarouselEngine
import Foundation
import XCTest
@testable import carouseld
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// `carouseld render`'s pieces: frames of the undisturbed carousel from real files, output
/// names, the touch script, the media listing.
final class RenderTests: XCTestCase {
    func testFrameShowsTheSelectedPictureWithBackgroundAndDots() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let colours: [UInt32] = [0xE04030, 0x30A050, 0x3060D0]
        let paths = try colours.enumerated().map { i, colour in
            try TestPictures.writePNG(TestPictures.solid(colour, width: 320, height: 180), "\(dir)/slide\(i + 1).png")
        }
        let config = CarouselConfig()
        let renderer = try OfflineRenderer(config: config, paths: paths, width: 320, height: 180)
        let frame = renderer.frame(at: 0)
        // Default card: 80 % of the screen, centred: 256x144 at (32, 18).
        assertColour(frame.pixel(x: 160, y: 90), colours[0], "centre card shows the first picture")
        assertColour(frame.pixel(x: 33, y: 19), colours[0], "card's top-left corner")
        assertColour(frame.pixel(x: 160, y: 10), 0x101010, "background above the card")
        // Dots: 12 px, 12 apart, 32 px from the bottom: the first (active) at x = 160 − 24.
        assertColour(frame.pixel(x: 136, y: 148), 0xFFFFFF, "active dot")
        assertColour(frame.pixel(x: 160, y: 148), 0x606060, "inactive dot")
    }

    /// Auto-advance included: after the interval and the spring, the second picture is centred.
    func testAutoAdvanceMovesToTheNextPicture() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let colours: [UInt32] = [0xE04030, 0x30A050, 0x3060D0]
        let paths = try colours.enumerated().map { i, colour in
            try TestPictures.writePNG(TestPictures.solid(colour, width: 320, height: 180), "\(dir)/\(i).png")
        }
        var config = CarouselConfig()
        config.interval = 2
        let renderer = try OfflineRenderer(config: config, paths: paths, width: 320, height: 180)
        assertColour(renderer.frame(at: 1.9).pixel(x: 160, y: 90), colours[0], "still the first picture")
        let moving = renderer.frame(at: 2.2).pixel(x: 160, y: 90) & 0xFF_FFFF
        XCTAssertNotEqual(moving, colours[0], "the strip moves after the interval")
        assertColour(renderer.frame(at: 4).pixel(x: 160, y: 90), colours[1], "settled on the second picture")
        let settled = renderer.frame(at: 4)
        assertColour(settled.pixel(x: 136, y: 148), 0x606060, "first dot no longer active")
        assertColour(settled.pixel(x: 160, y: 148), 0xFFFFFF, "second dot active")
    }

    /// The command end to end: carouseld.conf and the media directory in, PNG files out.
    func testRenderCommandWritesOnePNGPerTime() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        try FileManager.default.createDirectory(atPath: "\(dir)/conf/images", withIntermediateDirectories: true)
        try "interval = 1\nfit = \"contain\"\nbackground = \"#203040\"\n".write(toFile: "\(dir)/conf/carouseld.conf", atomically: true, encoding: .utf8)
        try TestPictures.writePNG(TestPictures.solid(0xE04030, width: 400, height: 100), "\(dir)/conf/images/a2.png")
        try TestPictures.write(TestPictures.jpeg(TestPictures.solid(0x3060D0, width: 400, height: 100)), "\(dir)/conf/images/a10.jpg")
        let command = try RenderCommand.parse(["--config", "\(dir)/conf", "--size", "320x180", "--at", "2.5,0", "--out", "\(dir)/out"])
        try command.run()
        let names = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").sorted()
        XCTAssertEqual(names, ["frame-0000.000.png", "frame-0002.500.png"])
        let first = try ImageFile.read("\(dir)/out/frame-0000.000.png").withUnsafeBytes { try PNGDecoder.decode($0, background: RGB(0)) }.pixels
        func rgb(_ image: PixelImage, _ x: Int, _ y: Int) -> UInt32 {
            let p = image.base + y * image.stride + x * 3
            return UInt32(p.load(fromByteOffset: 2, as: UInt8.self)) << 16 | UInt32(p.load(fromByteOffset: 1, as: UInt8.self)) << 8
                | UInt32(p.load(as: UInt8.self))
        }
        assertColour(rgb(first, 160, 90), 0xE04030, "a2 comes before a10 (natural order) and shows first")
        assertColour(rgb(first, 160, 30), 0x203040, "contain: letterbox bar in the configured background")
        assertColour(rgb(first, 5, 5), 0x203040, "background from carouseld.conf")
        let later = try ImageFile.read("\(dir)/out/frame-0002.500.png").withUnsafeBytes { try PNGDecoder.decode($0, background: RGB(0)) }.pixels
        assertColour(rgb(later, 160, 90), 0x3060D0, tolerance: 6, "auto-advanced after interval = 1 to a10.jpg")
    }

    func testOutputNamesSortByTime() {
        XCTAssertEqual(OfflineRenderer.fileName(at: 0), "frame-0000.000.png")
        XCTAssertEqual(OfflineRenderer.fileName(at: 1.5), "frame-0001.500.png")
        XCTAssertEqual(OfflineRenderer.fileName(at: 12.25), "frame-0012.250.png")
    }

    func testTouchScriptGroupsSamplesByTime() throws {
        let json = """
            [{"t":1.0,"slot":0,"phase":"down","x":900,"y":400},
             {"t":1.0,"slot":1,"phase":"down","x":100,"y":400},
             {"t":1.1,"slot":0,"phase":"move","x":700,"y":400},
             {"t":1.2,"slot":0,"phase":"up","x":500,"y":400}]
            """
        let frames = try TouchScript.parse(Data(json.utf8), path: "t.json")
        XCTAssertEqual(frames.map(\.time), [1.0, 1.1, 1.2])
        XCTAssertEqual(frames[0].samples, [TouchSample(slot: 0, phase: .down, x: 900, y: 400),
                                           TouchSample(slot: 1, phase: .down, x: 100, y: 400)])
        XCTAssertEqual(frames[2].samples.first?.phase, .up)
    }

    func testTouchScriptErrorsNameFileAndEntry() {
        XCTAssertThrowsError(try TouchScript.parse(Data(#"[{"t":1,"slot":0,"phase":"hover","x":1,"y":2}]"#.utf8), path: "s.json")) {
            XCTAssertEqual("\($0)", "touch script s.json: entry 0: phase \"hover\" is not down, move, up or cancel")
        }
        XCTAssertThrowsError(try TouchScript.parse(Data(#"[{"t":2,"slot":0,"phase":"down","x":1,"y":2},{"t":1,"slot":0,"phase":"up","x":1,"y":2}]"#.utf8), path: "s.json")) {
            XCTAssertEqual("\($0)", "touch script s.json: entry 1: t 1.0 is earlier than the entry before (2.0)")
        }
    }
}
