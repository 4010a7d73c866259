@testable import CarouselConfig
@testable import CarouselCore
import Glibc
import XCTest
import TestSupport

/// A picture copied into the media directory in place: cp, scp and dd create the final name
/// first and write the bytes over seconds. The reload waits until the writer closes the file,
/// or until it has not changed for `writeQuiet`.
final class ConfigWatcherWriteTests: XCTestCase {
    private var root: ConfigTestDirectory!
    private var watcher: ConfigWatcher!

    override func setUpWithError() throws {
        root = try ConfigTestDirectory()
        try root.mkdir("conf/images")
        try root.write("conf/carouseld.conf", "interval = 3\n")
        watcher = try ConfigWatcher(configDirectory: root.url("conf"), mediaDirectory: root.url("conf/images"))
    }

    override func tearDown() { watcher = nil; root = nil }

    private func openForWriting(_ name: String) throws -> Int32 {
        try syscall("open") { open(root.url("conf/images/" + name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
    }

    private func writeChunk(_ fd: Int32, _ size: Int = 1000) {
        let bytes = [UInt8](repeating: 7, count: size)
        XCTAssertEqual(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }, size)
    }

    /// Six chunks 1.2 s apart through one open descriptor: no reload until the close.
    func testAFileOpenForWritingHoldsTheReloadUntilItIsClosed() throws {
        let fd = try openForWriting("a4.png")
        var now = 10.0
        for _ in 0..<6 {
            writeChunk(fd)
            watcher.handleReadable(now: now)
            XCTAssertEqual(watcher.beingWritten.keys.sorted(), ["a4.png"])
            // Past the debounce, but the file is still open and changed 0.2 s ago.
            XCTAssertFalse(watcher.fire(now: now + watcher.debounce), "reloaded mid-copy")
            now += 1.2
        }
        close(fd)
        watcher.handleReadable(now: now)
        XCTAssertEqual(watcher.beingWritten, [:])
        let deadline = try XCTUnwrap(watcher.nextDeadline)
        XCTAssertTrue(watcher.fire(now: deadline), "the close ends the hold")
    }

    /// A writer that stopped without closing (killed, or a stalled scp): after `writeQuiet`
    /// without a change the file counts as written, and the reload comes.
    func testAWriterThatStopsWithoutClosingHoldsOnlyForTheQuietTime() throws {
        let fd = try openForWriting("stalled.png")
        defer { close(fd) }
        writeChunk(fd)
        watcher.handleReadable(now: 10)
        XCTAssertFalse(watcher.fire(now: 10 + watcher.debounce))
        XCTAssertEqual(watcher.nextDeadline, 10 + ConfigWatcher.writeQuiet)
        XCTAssertFalse(watcher.fire(now: 10 + ConfigWatcher.writeQuiet - 0.01))
        XCTAssertTrue(watcher.fire(now: 10 + ConfigWatcher.writeQuiet))
    }

    /// A file written without end (a log someone keeps in the directory) cannot hold reloads
    /// off for good.
    func testEndlessWritesHoldAtMostMaxWriteHold() throws {
        let fd = try openForWriting("growing.png")
        defer { close(fd) }
        var now = 10.0
        var reloadedAt: Double?
        while reloadedAt == nil && now < 100 {
            writeChunk(fd, 10)
            watcher.handleReadable(now: now)
            if watcher.fire(now: now) { reloadedAt = now }
            now += 0.5
        }
        XCTAssertEqual(try XCTUnwrap(reloadedAt), 10 + ConfigWatcher.maxWriteHold, accuracy: 0.5)
    }
}
