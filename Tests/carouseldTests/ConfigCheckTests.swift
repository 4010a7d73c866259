import Foundation
import XCTest
@testable import carouseld

/// `carouseld check`: the report, and the real binary's output and exit status.
final class ConfigCheckTests: XCTestCase {
    private var builtBinary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("carouseld").path
    }

    private func check(_ dir: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: builtBinary)
        process.arguments = ["check", "--config", dir]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    func testValidDirectoryPassesWithWarnings() throws {
        let dir = try ConfigTestDirectory.withImages([], config: "interval = 2\ncolour = \"red\"\n")
        for name in ["a.png", "b.png"] {
            try FileManager.default.copyItem(atPath: exampleImages.appendingPathComponent("slide3.png").path,
                                             toPath: dir.url("images/" + name))
        }
        let result = try check(dir.path)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "carouseld: configuration \(dir.path) is ok: 2 image(s), 1 warning(s)\n")
        XCTAssertEqual(result.stderr, "carouseld: warning: \(dir.url("carouseld.conf")):2: colour: unknown key, ignored\n")
    }

    func testEveryProblemIsPrintedAndExitIsOne() throws {
        let dir = try ConfigTestDirectory.withImages(["a.png"], config: "interval = \"x\"\nbogus = 1\nrotation = 45\n")
        let result = try check(dir.path)
        let conf = dir.url("carouseld.conf")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr.split(separator: "\n"), [
            "carouseld: warning: \(conf):2: bogus: unknown key, ignored",
            "carouseld: error: \(conf):1: interval: expected a number, got string \"x\"",
            "carouseld: error: \(conf):3: rotation: 45 is not allowed; allowed 0, 90, 180, 270",
            "carouseld: configuration \(dir.path) is invalid: 2 error(s)",
        ])
    }

    private var exampleImages: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../config/example/images")
            .standardized
    }

    func testUnreadableImagesAreErrors() throws {
        let dir = try ConfigTestDirectory.withImages([])
        try FileManager.default.copyItem(atPath: exampleImages.appendingPathComponent("slide1.png").path,
                                         toPath: dir.url("images/good.png"))
        try dir.writeBytes("images/empty.jpg", [])
        try dir.write("images/notes.jpg", "not a picture")
        try dir.write("playlist.m3u", "good.png\nempty.jpg\ngood.png\nnotes.jpg\n")
        let report = ConfigCheck.run(directory: dir.path)
        XCTAssertEqual(report.errors, ["\(dir.url("images/empty.jpg")): image: \(ImageError.empty)",
                                       "\(dir.url("images/notes.jpg")): image: \(ImageError.notAnImage(fileExtension: "jpg"))"])
        XCTAssertEqual(report.imageCount, 4)
        XCTAssertEqual(try check(dir.path).status, 1)
    }

    func testPixelCapIsCheckedFromTheHeader() throws {
        let dir = try ConfigTestDirectory.withImages([], config: "max_image_pixels = 1000\n")
        try FileManager.default.copyItem(atPath: exampleImages.appendingPathComponent("slide2.png").path,
                                         toPath: dir.url("images/big.png"))
        let report = ConfigCheck.run(directory: dir.path)
        XCTAssertEqual(report.errors.count, 1)
        XCTAssertTrue(report.errors[0].contains("more than max_image_pixels 1000"), report.errors[0])
    }

    func testProbeSeesEachFileOnceWithTheConfiguredPixelCap() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg"], config: "max_image_pixels = 1234\n")
        try dir.write("playlist.m3u", "a.jpg\nb.jpg\na.jpg\n")
        var probed: [String] = []
        let report = ConfigCheck.run(directory: dir.path) { path, cap in
            XCTAssertEqual(cap, 1234)
            probed.append((path as NSString).lastPathComponent)
            return path.hasSuffix("b.jpg") ? "too big" : nil
        }
        XCTAssertEqual(probed, ["a.jpg", "b.jpg"])
        XCTAssertEqual(report.errors, ["\(dir.url("images/b.jpg")): image: too big"])
        XCTAssertFalse(report.isValid)
    }

    func testExampleConfigChecksClean() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/example").standardized.path
        let result = try check(example)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
    }

    func testMissingDirectory() throws {
        let result = try check("/nonexistent/carouseld")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("/nonexistent/carouseld: directory: not found or not a directory"))
    }
}
