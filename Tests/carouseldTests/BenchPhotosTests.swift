@testable import CarouselCore
import Foundation
import XCTest
@testable import carouseld
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// `bench --photos DIR` on a tiny directory: one row per picture with its facts, a positive
/// decode time and a peak measured by a fresh carouseld, and the paging figures. No timing
/// thresholds: only that the numbers are there and make sense.
final class BenchPhotosTests: XCTestCase {
    /// The carouseld binary built next to this test bundle (the children run it).
    private var builtBinary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("carouseld").path
    }

    func testTableHasOneSaneRowPerPicture() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        let photos = dir + "/photos", scratch = dir + "/scratch"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        _ = try TestPictures.write(try TestPictures.jpeg(TestPictures.noise(width: 320, height: 200)), "\(photos)/a.jpg")
        _ = try TestPictures.writePNG(TestPictures.noise(width: 200, height: 300), "\(photos)/b.png")
        _ = try TestPictures.write(try TestPictures.webp(TestPictures.noise(width: 240, height: 240)), "\(photos)/c.webp")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: builtBinary), builtBinary)

        let bench = PhotoBench(executable: builtBinary, spec: CardSpec(width: 96, height: 54), scratch: scratch, runs: 1)
        var printed: [String] = []
        let report = try bench.report(directory: photos, scratch: scratch) { printed.append($0) }

        XCTAssertEqual(report.rows.map(\.name), ["a.jpg", "b.png", "c.webp"])
        XCTAssertEqual(report.rows.map(\.facts.format), ["JPEG", "PNG", "WebP"])
        XCTAssertEqual(report.rows.map(\.facts.width), [320, 200, 240])
        XCTAssertEqual(report.rows.map(\.facts.height), [200, 300, 240])
        XCTAssertEqual(report.rows[0].facts.progressive, false, "libturbojpeg writes baseline JPEGs")
        for row in report.rows {
            XCTAssertGreaterThan(row.cardSeconds, 0, row.name)
            XCTAssertLessThan(row.cardSeconds, 60, row.name)
            let peak = try XCTUnwrap(row.peakAddedBytes, "\(row.name): the child measured a peak")
            XCTAssertGreaterThan(peak, 0, row.name)
            XCTAssertLessThan(peak, 256 * 1_048_576, "\(row.name): a tiny picture cannot take that much")
            if let tool = row.tool {
                XCTAssertGreaterThan(tool.seconds, 0, row.name)
                XCTAssertEqual(row.ratio ?? 0, row.cardSeconds / tool.seconds, accuracy: 1e-9)
            }
        }
        // The table: a header, then one line per picture naming it first.
        let table = printed.drop { $0 != PhotoBench.header }.dropFirst().prefix(report.rows.count)
        XCTAssertEqual(table.map { $0.split(separator: " ").first.map(String.init) ?? "" }, ["a.jpg", "b.png", "c.webp"])

        let paging = try XCTUnwrap(report.paging)
        XCTAssertEqual(paging.files, 3)
        XCTAssertGreaterThan(paging.emptyBytes, 0)
        XCTAssertGreaterThanOrEqual(paging.coldBytes, paging.emptyBytes, "paging holds at least the floor")
        XCTAssertGreaterThanOrEqual(paging.warmBytes, paging.emptyBytes)
        let card = CardSpec(width: 96, height: 54)
        XCTAssertGreaterThanOrEqual(paging.cacheBytesOnDisk, 3 * card.byteCount, "three cards were cached")
        XCTAssertTrue(printed.contains { $0.hasPrefix("peak RSS paging again, served from the card cache") })
    }

    func testProgressiveJPEGsAreToldApartBySOF2() {
        let baseline: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x0B]
        let progressive: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x02, 0xFF, 0xC2, 0x00, 0x0B]
        XCTAssertEqual(PhotoFacts.startOfFrame(baseline), 0xC0)
        XCTAssertEqual(PhotoFacts.startOfFrame(progressive), 0xC2, "DHT before the frame is skipped")
        XCTAssertNil(PhotoFacts.startOfFrame([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02]))
    }
}
