@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
import Foundation
import Glibc
import XCTest
import TestSupport
import CoreTestSupport

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

    // MARK: - [[output]] playlists

    private static let independent = """
        layout = "independent"
        [[output]]
        name = "HDMI-A-1"
        playlist = "lobby.m3u"
        [[output]]
        name = "HDMI-A-2"
        """

    func testPerOutputPlaylistIsLoadedLikePlaylistM3u() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg", "c.jpg"], config: Self.independent)
        try dir.write("lobby.m3u", "#EXTINF:7,Front\nc.jpg\n../x.jpg\na.jpg\n")
        let loaded = try ConfigLoader.load(directory: dir.path)
        XCTAssertEqual(loaded.playlist.map(\.name), ["a.jpg", "b.jpg", "c.jpg"])
        XCTAssertEqual(Array(loaded.outputPlaylists.keys), ["HDMI-A-1"])
        XCTAssertEqual(loaded.playlist(forOutput: "HDMI-A-1"),
                       [PlaylistItem(path: dir.url("images/c.jpg"), duration: 7, title: "Front"),
                        PlaylistItem(path: dir.url("images/a.jpg"))])
        XCTAssertEqual(loaded.playlist(forOutput: "HDMI-A-2"), loaded.playlist)
        XCTAssertEqual(loaded.warnings, ["\(dir.url("lobby.m3u")):3: ../x.jpg: not found in \(dir.url("images")); skipped"])
    }

    func testMissingOrEmptyPerOutputPlaylistIsAProblemOnItsLine() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"], config: Self.independent)
        let conf = dir.url("carouseld.conf")
        XCTAssertThrowsError(try ConfigLoader.load(directory: dir.path)) { error in
            XCTAssertEqual((error as? ConfigLoadError)?.problems,
                           ["\(conf):4: output.playlist: \(dir.url("lobby.m3u")): file not found"])
        }
        try dir.write("lobby.m3u", "# nothing yet\nmissing.jpg\n")
        XCTAssertThrowsError(try ConfigLoader.load(directory: dir.path)) { error in
            XCTAssertEqual((error as? ConfigLoadError)?.problems,
                           ["\(conf):4: output.playlist: \(dir.url("lobby.m3u")): no playable entries"])
        }
    }

    func testMirrorLayoutLoadsNoPerOutputPlaylist() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"], config: "[[output]]\nname = \"A\"\n")
        let loaded = try ConfigLoader.load(directory: dir.path)
        XCTAssertEqual(loaded.shell.outputs.map(\.name), ["A"])
        XCTAssertEqual(loaded.outputPlaylists, [:])
        XCTAssertEqual(loaded.playlist(forOutput: "A"), loaded.playlist)
    }

    func testConfigThatIsADirectoryIsAProblem() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"])
        try dir.remove("carouseld.conf")
        try dir.mkdir("carouseld.conf")
        XCTAssertThrowsError(try ConfigLoader.load(directory: dir.path)) { error in
            XCTAssertEqual((error as? ConfigLoadError)?.problems, ["\(dir.url("carouseld.conf")): file: not a regular file"])
        }
    }

    // MARK: - Hostile inputs

    func testMediaDirectoryThatIsASymlinkLoopIsNamed() throws {
        let dir = try ConfigTestDirectory.withImages([], config: "interval = 3\nmedia = \"loop\"\n")
        try dir.symlink("loop", to: "loop")
        XCTAssertThrowsError(try ConfigLoader.load(directory: dir.path)) { error in
            XCTAssertEqual((error as? ConfigLoadError)?.problems, [
                "\(dir.url("carouseld.conf")):2: media: \(dir.url("loop")) is a symlink loop (Too many levels of symbolic links)",
            ])
        }
        // Two links pointing at each other, as the config directory itself.
        try dir.symlink("ping", to: "pong")
        try dir.symlink("pong", to: "ping")
        XCTAssertThrowsError(try ConfigLoader.load(directory: dir.url("ping"))) { error in
            XCTAssertEqual((error as? ConfigLoadError)?.problems,
                           ["\(dir.url("ping")): directory: is a symlink loop (Too many levels of symbolic links)"])
        }
    }

    /// The config directory replaced by a plain file: named as such; a running daemon's reload
    /// is rejected and the last good config (and the pictures on screen) stay.
    func testConfigDirectoryReplacedByAFile() throws {
        let parent = try ConfigTestDirectory()
        try parent.mkdir("conf/images")
        try parent.write("conf/carouseld.conf", "interval = 3\n")
        try parent.writeBytes("conf/images/a.jpg", ConfigTestDirectory.pngSignature)
        let conf = parent.url("conf")
        let controller = try ReloadController(directory: conf)
        let engine = CarouselEngine(config: controller.current.config, itemCount: 1, viewport: Size(width: 80, height: 60), now: 0)
        let good = controller.current

        try parent.remove("conf")
        try parent.write("conf", "not a directory\n")
        let expected = ["\(conf): directory: is a file, not a directory"]
        XCTAssertThrowsError(try ConfigLoader.load(directory: conf)) { error in
            XCTAssertEqual((error as? ConfigLoadError)?.problems, expected)
        }
        let lines = capturingLog {
            XCTAssertEqual(controller.reload(selectedIndex: engine.selectedIndex), .rejected(expected))
        }
        XCTAssertEqual(controller.current, good)
        XCTAssertEqual(engine.itemCount, 1)
        XCTAssertTrue(lines.contains { $0.0 == .error && $0.1 == expected[0] }, "\(lines)")
    }

    /// A name with a newline is a file like any other (shown; log lines escape it); a name that
    /// is not UTF-8 cannot be a Swift path, so it is skipped with its bytes escaped.
    func testFileNamesWithNewlinesAndInvalidUTF8() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "two\nlines.jpg"])
        let raw = Array(dir.url("images/").utf8) + [0xFF, 0x66, 0x2E, 0x6A, 0x70, 0x67] // "\xfff.jpg"
        let fd = open(raw.map { CChar(bitPattern: $0) } + [0], O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        let loaded = try ConfigLoader.load(directory: dir.path)
        XCTAssertEqual(loaded.playlist.map(\.name), ["a.jpg", "two\nlines.jpg"])
        XCTAssertEqual(loaded.warnings, ["\(dir.url("images"))/\\xfff.jpg: name: file name is not valid UTF-8; skipped (rename the file)"])
        // What reaches the journal: one line, the newline written as \n.
        XCTAssertEqual(escapingControls("skipping \(loaded.playlist[1].path): truncated"),
                       "skipping \(dir.url("images"))/two\\nlines.jpg: truncated")
        XCTAssertEqual(escapingControls("a\r\u{1B}[31mb\tc"), "a\\r\\x1b[31mb\tc")
        XCTAssertEqual(escapedFileName([0x61, 0xC3, 0xA9, 0xFF, 0xC3]), "a\u{E9}\\xff\\xc3")
    }
}
