@testable import CarouselConfig
@testable import CarouselCore
import Glibc
import XCTest
import TestSupport

/// The last good config kept on disk (issue 44): a config cut half-written by a power failure
/// starts the daemon on the copy, never on defaults and never not at all; a torn copy is refused.
final class LastGoodConfigTests: XCTestCase {
    private var logged: [(Log.Level, String)] = []

    override func setUp() {
        Log.sink = { [unowned self] level, line in logged.append((level, line)) }
    }

    override func tearDown() { Log.sink = nil }

    private func directoryWithPlaylists() throws -> ConfigTestDirectory {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg", "c.jpg"], config: """
            interval = 7
            [[playlist]]
            file = "lists/evening.m3u"
            from = "18:00"
            to = "23:00"

            """)
        try dir.write("playlist.m3u", "c.jpg\na.jpg\n")
        try dir.mkdir("lists")
        try dir.write("lists/evening.m3u", "b.jpg\n")
        return dir
    }

    func testTheCopyHoldsTheFilesTheConfigWasReadFromAndComesBackWhole() throws {
        let dir = try directoryWithPlaylists()
        let loaded = try ConfigLoader.load(directory: dir.path)
        XCTAssertEqual(LastGoodConfig.files(of: loaded), ["carouseld.conf", "playlist.m3u", "lists/evening.m3u"])
        let packed = try XCTUnwrap(LastGoodConfig.pack(loaded))
        let files = try LastGoodConfig.unpack(packed)
        XCTAssertEqual(files.map(\.name), ["carouseld.conf", "playlist.m3u", "lists/evening.m3u"])
        XCTAssertEqual(files[1].bytes, Array("c.jpg\na.jpg\n".utf8))
    }

    func testATornOrChangedCopyIsRefused() throws {
        let dir = try directoryWithPlaylists()
        let packed = try XCTUnwrap(LastGoodConfig.pack(try ConfigLoader.load(directory: dir.path)))
        // Every cut short of the whole file is refused: a power cut can stop the write anywhere.
        for length in stride(from: 0, to: packed.count, by: 7) {
            XCTAssertThrowsError(try LastGoodConfig.unpack(Array(packed.prefix(length))), "cut at \(length)")
        }
        var flipped = packed
        flipped[40] ^= 0x20
        XCTAssertThrowsError(try LastGoodConfig.unpack(flipped)) { error in
            XCTAssertEqual((error as? LastGoodConfig.Problem)?.description, "checksum mismatch (torn or changed)")
        }
        XCTAssertThrowsError(try LastGoodConfig.unpack([UInt8](repeating: 0, count: 4096)), "zero-filled, as ext4 can leave a file after a cut")
    }

    func testANameLeavingTheDirectoryIsRefused() throws {
        var body = Array("\(LastGoodConfig.magic)\ncarouseld.conf 0\n\n../../etc/passwd 1\nx\n".utf8)
        body += Array("fnv \(String(format: "%016llx", body.withUnsafeBytes { FNV.hash($0) }))\n".utf8)
        XCTAssertThrowsError(try LastGoodConfig.unpack(body)) { error in
            XCTAssertEqual((error as? LastGoodConfig.Problem)?.description, "refused name ../../etc/passwd")
        }
    }

    func testAConfigChangedSinceItsLoadIsNotSavedAsThatLoad() throws {
        let dir = try directoryWithPlaylists()
        let loaded = try ConfigLoader.load(directory: dir.path)
        try dir.write("carouseld.conf", "interval = 9\n")
        XCTAssertNil(LastGoodConfig.pack(loaded))
    }

    /// The power cut in the middle of an operator's copy in place: carouseld.conf is half there.
    /// The start takes the last good copy, resolves its relative paths against the real
    /// directory, names the problem, and takes the directory again once it is whole.
    func testAHalfWrittenConfigStartsOnTheLastGoodOne() throws {
        let dir = try directoryWithPlaylists()
        let state = try ConfigTestDirectory()
        let copy = state.url("last-good-config")
        XCTAssertNoThrow(try LastGoodConfig.save(try ConfigLoader.load(directory: dir.path), to: copy).get())
        try dir.write("carouseld.conf", "interval = 7\n[[playlist]]\nfile = \"lists/eve")   // cut mid-line
        XCTAssertThrowsError(try ReloadController(directory: dir.path), "without a copy the start fails, as before")

        let controller = try ReloadController(directory: dir.path, lastGood: copy)
        XCTAssertEqual(controller.current.config.interval, 7)
        XCTAssertEqual(controller.current.mediaDirectory, dir.path + "/images", "relative to the real directory")
        XCTAssertEqual(controller.current.playlist.map(\.name), ["c.jpg", "a.jpg"])
        XCTAssertEqual(controller.current.daypartPlaylists["lists/evening.m3u"]?.map(\.name), ["b.jpg"])
        XCTAssertEqual(controller.current.directory, dir.path, "reloads read the real directory")
        XCTAssertFalse(controller.problems.isEmpty, "the status says the directory is invalid")
        XCTAssertTrue(logged.contains { $0.1.contains("showing the last good config (\(copy))") }, "\(logged)")

        try dir.write("carouseld.conf", "interval = 4\n")
        XCTAssertEqual(controller.reload(), .applied(keepIndex: 0))
        XCTAssertEqual(controller.current.config.interval, 4)
        XCTAssertEqual(controller.problems, [])
    }

    func testATornCopyIsNotUsedAndTheStartFailsAsWithout() throws {
        let dir = try directoryWithPlaylists()
        let state = try ConfigTestDirectory()
        try state.writeBytes("last-good-config", Array("\(LastGoodConfig.magic)\ncarouseld.conf 40\ninterval".utf8))
        try dir.write("carouseld.conf", "interval = \"")
        XCTAssertThrowsError(try ReloadController(directory: dir.path, lastGood: state.url("last-good-config")))
        XCTAssertTrue(logged.contains { $0.1.contains("is not used: cut short") || $0.1.contains("is not used: checksum") }, "\(logged)")
    }

    func testSavingTheSameCopyAgainWritesNothing() throws {
        let dir = try directoryWithPlaylists()
        let state = try ConfigTestDirectory()
        let copy = state.url("last-good-config")
        let loaded = try ConfigLoader.load(directory: dir.path)
        XCTAssertNoThrow(try LastGoodConfig.save(loaded, to: copy).get())
        var before = stat()
        stat(copy, &before)
        XCTAssertNoThrow(try LastGoodConfig.save(loaded, to: copy).get())
        var after = stat()
        stat(copy, &after)
        XCTAssertEqual(before.st_ino, after.st_ino, "not replaced: an SD card is not written for nothing")
        XCTAssertEqual(before.st_mode & 0o777, 0o600)
    }
}
