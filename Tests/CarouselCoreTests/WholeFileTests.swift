@testable import CarouselCore
import Foundation
import Glibc
import XCTest

/// The one write helper (issue 44): a file is replaced whole or not at all, a failed write
/// leaves the old file and no temporary one, and the mode is the one asked for.
final class WholeFileTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "carouseld-wholefile-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { [dir] in try? FileManager.default.removeItem(atPath: dir) }
    }

    private func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    func testReplacesTheFileWholeWithTheModeAskedFor() throws {
        let path = dir + "/state.json"
        for durability in [WholeFile.Durability.replaced, .durable] {
            XCTAssertNoThrow(try WholeFile.write(Array("{\"a\":1}\n".utf8), to: path, mode: 0o640, durability: durability).get())
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "{\"a\":1}\n")
            var info = stat()
            stat(path, &info)
            XCTAssertEqual(info.st_mode & 0o777, 0o640)
        }
        XCTAssertEqual(names(), ["state.json"], "no temporary file left")
    }

    func testAFailedWriteKeepsTheOldFileAndLeavesNoTemporary() throws {
        let path = dir + "/carouseld.prom"
        _ = WholeFile.write(Array("old\n".utf8), to: path)
        let result = WholeFile.write(path) { fd in
            _ = Glibc.write(fd, "ne", 2)
            errno = ENOSPC
            return false
        }
        XCTAssertThrowsError(try result.get()) { XCTAssertEqual($0 as? WholeFile.Failure, WholeFile.Failure(step: "write", errno: ENOSPC)) }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old\n")
        XCTAssertEqual(names(), ["carouseld.prom"])
    }

    func testAnUnwritableDirectoryIsAnOpenFailure() {
        let result = WholeFile.write([1, 2, 3], to: dir + "/missing/file")
        XCTAssertThrowsError(try result.get()) { XCTAssertEqual($0 as? WholeFile.Failure, WholeFile.Failure(step: "open", errno: ENOENT)) }
    }

    /// What a cut between open and rename leaves is a name the owners of the directory skip.
    func testTheTemporaryNameIsALeftoverByName() throws {
        var seen: String?
        _ = WholeFile.write(dir + "/frame-0.kept") { _ in
            seen = self.names().first
            return true
        }
        let temporary = try XCTUnwrap(seen)
        XCTAssertTrue(WholeFile.isLeftover(temporary), temporary)
        XCTAssertTrue(temporary.hasPrefix(".frame-0.kept."))
        XCTAssertFalse(WholeFile.isLeftover("frame-0.kept"))
    }
}
