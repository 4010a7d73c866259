import CarouselEngine
import XCTest
@testable import carouseld

/// Loading a whole directory: relative media paths, required files, problems collected together.
final class ConfigLoaderTests: XCTestCase {
    func testExampleConfigLoads() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/example").standardized.path
        let loaded = try ConfigLoader.load(directory: example)
        XCTAssertEqual(loaded.config.interval, 4)
        XCTAssertEqual(loaded.config.cardWidth, .fraction(0.7))
        XCTAssertGreaterThanOrEqual(loaded.playlist.count, 5)
        XCTAssertEqual(loaded.warnings, [])
    }

    func testRelativeAndAbsoluteMedia() throws {
        let dir = try ConfigTestDirectory.withImages([], config: "media = \"pics/../photos\"\n")
        try dir.mkdir("photos")
        try dir.writeBytes("photos/x.png", ConfigTestDirectory.pngSignature)
        XCTAssertEqual(try ConfigLoader.load(directory: dir.path).mediaDirectory, dir.url("photos"))

        let other = try ConfigTestDirectory.withImages(["y.jpg"])
        try dir.write("carouseld.conf", "media = \"\(other.url("images"))\"\n")
        XCTAssertEqual(try ConfigLoader.load(directory: dir.path).playlist.map(\.path), [other.url("images/y.jpg")])
    }

    func testAllProblemsAreReportedTogether() throws {
        let dir = try ConfigTestDirectory()
        try dir.write("carouseld.conf", "interval = \"x\"\nfit = \"fill\"\nmedia = \"nowhere\"\n")
        XCTAssertThrowsError(try ConfigLoader.load(directory: dir.path)) { error in
            let conf = dir.url("carouseld.conf")
            XCTAssertEqual((error as? ConfigLoadError)?.problems, [
                "\(conf):1: interval: expected a number, got string \"x\"",
                "\(conf):2: fit: expected \"cover\" or \"contain\", got string \"fill\"",
                "\(conf):3: media: \(dir.url("nowhere")) is not a directory",
            ])
        }
    }

    func testMissingConfigFileAndDirectory() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"])
        try dir.remove("carouseld.conf")
        XCTAssertThrowsError(try ConfigLoader.load(directory: dir.path)) { error in
            XCTAssertEqual((error as? ConfigLoadError)?.problems, ["\(dir.url("carouseld.conf")): file: file not found"])
        }
        XCTAssertThrowsError(try ConfigLoader.load(directory: dir.url("none"))) { error in
            XCTAssertEqual((error as? ConfigLoadError)?.problems, ["\(dir.url("none")): directory: not found or not a directory"])
        }
    }

    func testEmptyMediaDirectoryIsAnError() throws {
        let dir = try ConfigTestDirectory.withImages([], config: "dots = true\n")
        XCTAssertThrowsError(try ConfigLoader.load(directory: dir.path)) { error in
            XCTAssertEqual((error as? ConfigLoadError)?.problems,
                           ["\(dir.url("carouseld.conf")): media: no images in \(dir.url("images")) (supported: .jpg .jpeg .png .webp)"])
        }
    }

    func testConfigThatIsADirectoryIsAProblem() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"])
        try dir.remove("carouseld.conf")
        try dir.mkdir("carouseld.conf")
        XCTAssertThrowsError(try ConfigLoader.load(directory: dir.path)) { error in
            XCTAssertEqual((error as? ConfigLoadError)?.problems, ["\(dir.url("carouseld.conf")): file: not a regular file"])
        }
    }
}
