@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
import Foundation
import XCTest
@testable import carouseld
@testable import CarouselPixels
import TestSupport
import CoreTestSupport

/// `carouseld check`: the report, and the real binary's output and exit status.
final class ConfigCheckTests: XCTestCase {
    private var builtBinary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("carouseld").path
    }

    private func check(_ dir: String, _ more: [String] = []) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: builtBinary)
        process.arguments = ["check", "--config", dir] + more
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
        let out = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(out.count, 2, result.stdout)
        XCTAssertNotNil(out.first?.wholeMatch(of: /carouseld: decoded 2 pictures in \d+\.\d\d s on [12] cores?/), result.stdout)
        XCTAssertEqual(out.last, "carouseld: configuration \(dir.path) is ok: 2 image(s), 1 warning(s)")
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
        XCTAssertEqual(report.errors, ["skipping \(dir.url("images/empty.jpg")): \(ImageError.empty)",
                                       "skipping \(dir.url("images/notes.jpg")): \(ImageError.notAnImage(fileExtension: "jpg"))"])
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

    /// [[output]] connectors the cards lack are errors; with no readable card (a build machine) the check is skipped.
    func testUnknownConnectorsAreErrorsWhenCardsCanBeRead() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"], config: """
            interval = 3
            [[output]]
            name = "Virtual-1"
            [[output]]
            name = "HDMI-A-9"
            """)
        let noDecode: ConfigCheck.ImageDecode = { _, _ in nil }
        let report = ConfigCheck.run(directory: dir.path, decode: noDecode) { ["Virtual-1", "Virtual-2"] }
        XCTAssertEqual(report.errors, [
            "\(dir.url("carouseld.conf")):4: output.name: connector HDMI-A-9 not found; available: Virtual-1, Virtual-2",
        ])
        XCTAssertEqual(ConfigCheck.run(directory: dir.path, decode: noDecode) { nil }.errors, [])
        try dir.write("carouseld.conf", "backend = \"wayland\"\n[[output]]\nname = \"HDMI-A-9\"\n")
        XCTAssertEqual(ConfigCheck.run(directory: dir.path, decode: noDecode) { [] }.errors, [], "Wayland names its own outputs")
    }

    /// An [[output]]'s own playlist is decoded too, at that output's card size.
    func testPerOutputPlaylistIsDecodedWithItsOwnSettings() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg"], config: """
            layout = "independent"
            card_width = 500
            [[output]]
            name = "HDMI-A-1"
            playlist = "lobby.m3u"
            card_width = 300
            """)
        try dir.write("playlist.m3u", "a.jpg\n")
        try dir.write("lobby.m3u", "a.jpg\nb.jpg\n")
        final class Seen: @unchecked Sendable { let lock = NSLock(); var widths: [String: Int] = [:] }
        let seen = Seen()
        let report = ConfigCheck.run(directory: dir.path, decode: { path, spec in
            seen.lock.withLock { seen.widths[(path as NSString).lastPathComponent] = spec.width }
            return nil
        }, connectors: { nil })
        XCTAssertEqual(report.errors, [])
        XCTAssertEqual(report.imageCount, 3)
        XCTAssertEqual(seen.widths, ["a.jpg": 500, "b.jpg": 300])
    }

    func testEachFileIsDecodedOnceForTheDaemonsCardSpec() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg"],
                                                     config: "max_image_pixels = 1234\ncard_width = 500\nfit = \"contain\"\n")
        try dir.write("playlist.m3u", "a.jpg\nb.jpg\na.jpg\n")
        final class Seen: @unchecked Sendable { let lock = NSLock(); var names: [String] = []; var specs: [CardSpec] = [] }
        let seen = Seen()
        let screen = Size(width: 1280, height: 800)
        let report = ConfigCheck.run(directory: dir.path, screen: screen) { path, spec in
            seen.lock.withLock { seen.names.append((path as NSString).lastPathComponent); seen.specs.append(spec) }
            return path.hasSuffix("b.jpg") ? "too big" : nil
        }
        XCTAssertEqual(seen.names.sorted(), ["a.jpg", "b.jpg"])
        // The image store's spec for that screen: card_width as configured, card_height 80 % of 800.
        let loaded = try ConfigLoader.load(directory: dir.path)
        let expected = CardSpec(config: loaded.config, maxImagePixels: loaded.shell.media.maxImagePixels, cardWidth: 500, cardHeight: 640)
        XCTAssertEqual(Set(seen.specs.map { "\($0)" }), ["\(expected)"])
        XCTAssertEqual(seen.specs.first?.maxImagePixels, 1234)
        XCTAssertEqual(seen.specs.first?.fit, .contain)
        XCTAssertEqual(report.errors, ["skipping \(dir.url("images/b.jpg")): too big"])
        XCTAssertEqual(report.decoding?.pictures, 2)
        XCTAssertFalse(report.isValid)
    }

    /// The issue's new user: a PNG cut after 200 bytes passed `check` (headers only) and was
    /// skipped at run time. Now `check` decodes it and names it with the daemon's own line.
    func testPNGCutAfter200BytesIsNamedWithTheDaemonsReason() throws {
        let dir = try ConfigTestDirectory.withImages([])
        let whole = try Data(contentsOf: exampleImages.appendingPathComponent("slide1.png"))
        try dir.writeBytes("images/a.png", Array(whole))
        try dir.writeBytes("images/cut.png", Array(whole.prefix(200)))
        let cut = dir.url("images/cut.png")
        // What the daemon's decode worker logs for it.
        let logged = capturingLog {
            let store = ImageStore(paths: [cut], spec: CardSpec(width: 64, height: 36))
            store.waitUntilLoaded(indices: [0])
        }.map(\.1)
        XCTAssertEqual(logged.count, 1)
        XCTAssertTrue(logged[0].hasPrefix("skipping \(cut): truncated PNG data"), logged[0])

        let result = try check(dir.path)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n"), [
            "carouseld: error: \(logged[0])",
            "carouseld: configuration \(dir.path) is invalid: 1 error(s)",
        ])
        XCTAssertNotNil(result.stdout.wholeMatch(of: /carouseld: decoded 2 pictures in \d+\.\d\d s on [12] cores?\n/), result.stdout)
    }

    /// Many pictures decode on every core (one thread each), each result at its own file.
    func testDecodingRunsOnAllCoresAndReportsItsTime() throws {
        let dir = try ConfigTestDirectory.withImages([])
        for i in 0..<12 {
            try FileManager.default.copyItem(atPath: exampleImages.appendingPathComponent("slide\(i % 5 + 1).png").path,
                                             toPath: dir.url("images/p\(i).png"))
        }
        try dir.writeBytes("images/p5.png", [0x89, 0x50, 0x4E, 0x47])
        final class Threads: @unchecked Sendable { let lock = NSLock(); var ids = Set<UInt>() }
        let threads = Threads()
        let report = ConfigCheck.run(directory: dir.path, threads: 4) { path, spec in
            threads.lock.withLock { _ = threads.ids.insert(UInt(bitPattern: Int(pthread_self()))) }
            return ConfigCheck.decodeProblem(path: path, spec: spec)
        }
        XCTAssertEqual(report.decoding?.pictures, 12)
        XCTAssertEqual(report.decoding?.threads, 4)
        XCTAssertGreaterThan(threads.ids.count, 0)
        XCTAssertLessThanOrEqual(threads.ids.count, 4)
        XCTAssertEqual(report.errors.count, 1)
        XCTAssertTrue(report.errors[0].hasPrefix("skipping \(dir.url("images/p5.png")): "), report.errors[0])
        XCTAssertEqual(ParallelDecode.onlineCores(), Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let summary = try XCTUnwrap(report.decoding?.summary)
        XCTAssertNotNil(summary.wholeMatch(of: /decoded 12 pictures in \d+\.\d\d s on 4 cores/), summary)
        print("check: \(summary)")
    }

    func testSizeOptionIsValidated() throws {
        let dir = try ConfigTestDirectory.withImages([])
        let result = try check(dir.path, ["--size", "wide"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("--size wide is not WIDTHxHEIGHT"), result.stderr)
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

    func testManyPicturesFailingForOneReasonAreOneLineWithTheCountAndTheFirstThree() {
        let failures = (1...50).map { ("/m/bad\($0).png", "not a JPEG") } + [("/m/x.jpg", "file is empty (0 bytes)")]
            + (1...3).map { ("/m/t\($0).png", "truncated") }
        XCTAssertEqual(ConfigCheck.summarisedDecodeProblems(failures), [
            "skipping 50 pictures: not a JPEG: /m/bad1.png, /m/bad2.png, /m/bad3.png and 47 more",
            "skipping /m/x.jpg: file is empty (0 bytes)",
            "skipping /m/t1.png: truncated", "skipping /m/t2.png: truncated", "skipping /m/t3.png: truncated",
        ])
    }
}
