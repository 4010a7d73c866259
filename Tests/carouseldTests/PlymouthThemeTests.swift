import CarouselEngine
import CarouselPixels
import Foundation
import TestSupport
import XCTest
@testable import carouseld

/// `carouseld splash install`'s theme: the first frame as two-step's watermark, the dialog's
/// images from the stock theme, and a description plymouth reads with no animation left to end.
final class PlymouthThemeTests: XCTestCase {
    func testTheThemeHoldsTheFrameTheDialogImagesAndNoAnimation() throws {
        let dir = try ConfigTestDirectory()
        try FileManager.default.createDirectory(atPath: dir.url("spinner"), withIntermediateDirectories: true)
        try dir.write("spinner/entry.png", "entry")
        try dir.write("spinner/lock.png", "lock")
        let frame = try XCTUnwrap(PixelImage(width: 64, height: 40))
        frame.fill(0xFF20_3040)
        let theme = PlymouthTheme(directory: dir.url("carouseld"), stockImages: dir.url("spinner"))
        try theme.write(frame.buffer, background: RGB(0x203040))

        try PNGWriter.write(frame.buffer, to: dir.url("expected.png"))
        XCTAssertEqual(FileManager.default.contents(atPath: dir.url("carouseld/watermark.png")),
                       FileManager.default.contents(atPath: dir.url("expected.png")), "the watermark is the frame")
        XCTAssertEqual(FileManager.default.contents(atPath: dir.url("carouseld/lock.png")), Data("lock".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.url("carouseld/bullet.png")), "only what the stock theme has")

        let description = try String(contentsOfFile: dir.url("carouseld/carouseld.plymouth"), encoding: .utf8)
        for line in ["ModuleName=two-step", "ImageDir=\(dir.url("carouseld"))", "BackgroundStartColor=0x203040",
                     "WatermarkHorizontalAlignment=.5", "WatermarkVerticalAlignment=.5"] {
            XCTAssertTrue(description.contains("\n\(line)\n"), "\(line) in\n\(description)")
        }
        // Each mode plymouth boots or stops in ends with no animation: idle at `deactivate`, the
        // picture stays.
        XCTAssertEqual(description.components(separatedBy: "UseEndAnimation=false").count - 1, 3)
    }

    /// A theme folder that cannot be made is an error naming it, and nothing is written.
    func testAFolderThatCannotBeMadeIsNamed() throws {
        let dir = try ConfigTestDirectory()
        try dir.write("themes", "a file, not a folder")
        let frame = try XCTUnwrap(PixelImage(width: 8, height: 8))
        let theme = PlymouthTheme(directory: dir.url("themes/carouseld"), stockImages: dir.url("none"))
        XCTAssertThrowsError(try theme.write(frame.buffer, background: RGB(0))) { error in
            XCTAssertTrue("\(error)".contains(dir.url("themes/carouseld")), "\(error)")
        }
    }
}
