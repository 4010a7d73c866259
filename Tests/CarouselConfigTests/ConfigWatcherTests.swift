@testable import CarouselConfig
@testable import CarouselCore
import Foundation
import Glibc
import XCTest
import TestSupport

/// The inotify watcher against real file operations: each case is a way people and tools
/// change files (editors, rsync, rm -rf and mkdir, queue overflow).
final class ConfigWatcherTests: XCTestCase {
    private var root: ConfigTestDirectory!
    private var conf: String { root.url("conf") }
    private var images: String { root.url("conf/images") }
    private var watcher: ConfigWatcher!

    override func setUpWithError() throws {
        root = try ConfigTestDirectory()
        try root.mkdir("conf/images")
        try root.write("conf/carouseld.conf", "interval = 3\n")
        try root.writeBytes("conf/images/a.jpg", ConfigTestDirectory.pngSignature)
        watcher = try ConfigWatcher(configDirectory: conf, mediaDirectory: images)
    }

    override func tearDown() { watcher = nil; root = nil }

    /// Reads events at `now` and says whether a reload is due `debounce` later (and not before).
    private func reloadsAfterDebounce(at now: Double = 10, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        watcher.handleReadable(now: now)
        guard let deadline = watcher.nextDeadline else { return false }
        XCTAssertEqual(deadline, now + watcher.debounce, accuracy: 1e-9, file: file, line: line)
        XCTAssertFalse(watcher.fire(now: deadline - 0.001), file: file, line: line)
        XCTAssertTrue(watcher.fire(now: deadline), file: file, line: line)
        XCTAssertFalse(watcher.fire(now: deadline + 1), "fires once per burst", file: file, line: line)
        return true
    }

    func testNothingHappensWithoutChanges() {
        watcher.handleReadable(now: 1)
        XCTAssertNil(watcher.nextDeadline)
        XCTAssertFalse(watcher.fire(now: 100))
    }

    func testInPlaceWriteOfConfig() throws {
        try root.write("conf/carouseld.conf", "interval = 4\n")
        XCTAssertTrue(reloadsAfterDebounce())
    }

    func testEditorTempFileThenRename() throws {
        try root.write("conf/.carouseld.conf.swp", "x")
        try root.write("conf/carouseld.conf~", "interval = 3\n")
        try root.write("conf/.goutputstream-ABC123", "interval = 5\n")
        XCTAssertFalse(reloadsAfterDebounce(), "temporary names alone never reload")
        XCTAssertEqual(rename(root.url("conf/.goutputstream-ABC123"), root.url("conf/carouseld.conf")), 0)
        XCTAssertTrue(reloadsAfterDebounce())
    }

    func testUnrelatedFileInConfigDirectoryIsIgnored() throws {
        try root.write("conf/README", "notes")
        XCTAssertFalse(reloadsAfterDebounce())
        try root.write("conf/playlist.m3u", "a.jpg\n")
        XCTAssertTrue(reloadsAfterDebounce())
    }

    /// An [[output]] may name its own playlist: every *.m3u in the config directory counts.
    func testAnyPlaylistInConfigDirectoryMatters() throws {
        try root.write("conf/.lobby.m3u.swp", "a.jpg\n")
        try root.write("conf/lobby.txt", "a.jpg\n")
        XCTAssertFalse(reloadsAfterDebounce())
        try root.write("conf/lobby.m3u", "a.jpg\n")
        XCTAssertTrue(reloadsAfterDebounce())
    }

    func testRsyncTemporaryNameThenRename() throws {
        try root.writeBytes("conf/images/.b.jpg.Xa81Qz", ConfigTestDirectory.pngSignature)
        XCTAssertFalse(reloadsAfterDebounce())
        XCTAssertEqual(rename(root.url("conf/images/.b.jpg.Xa81Qz"), root.url("conf/images/b.jpg")), 0)
        XCTAssertTrue(reloadsAfterDebounce())
        try root.remove("conf/images/a.jpg")
        XCTAssertTrue(reloadsAfterDebounce())
    }

    func testBurstGivesOneReloadAfterTheLastEvent() throws {
        for step in 0..<5 {
            try root.write("conf/carouseld.conf", "interval = \(step)\n")
            watcher.handleReadable(now: 10 + Double(step) * 0.1)
        }
        XCTAssertEqual(watcher.nextDeadline ?? 0, 10.4 + watcher.debounce, accuracy: 1e-9)
        XCTAssertFalse(watcher.fire(now: 10.59))
        XCTAssertTrue(watcher.fire(now: 10.6))
    }

    func testEndlessChurnStillReloadsAfterMaxDelay() throws {
        var now = 10.0
        var fired: Double? = nil
        while now < 14, fired == nil {
            try root.write("conf/carouseld.conf", "interval = 1\n")
            watcher.handleReadable(now: now)
            if watcher.fire(now: now) { fired = now }
            now += 0.1
        }
        XCTAssertEqual(fired ?? 0, 10 + watcher.maxDelay, accuracy: 0.11)
    }

    func testConfigDirectoryDeletedAndCreatedAgain() throws {
        try FileManager.default.removeItem(atPath: conf)
        XCTAssertTrue(reloadsAfterDebounce(), "deleting the directory is a change (the reload will keep the old config)")
        try root.mkdir("conf")
        XCTAssertTrue(reloadsAfterDebounce(at: 20))
        try root.write("conf/carouseld.conf", "interval = 9\n")
        XCTAssertTrue(reloadsAfterDebounce(at: 30), "the new directory is watched")
        try root.mkdir("conf/images")
        XCTAssertTrue(reloadsAfterDebounce(at: 40), "the media directory appearing is seen")
        try root.writeBytes("conf/images/z.png", ConfigTestDirectory.pngSignature)
        XCTAssertTrue(reloadsAfterDebounce(at: 50), "and the new media directory is watched")
    }

    func testWholeTreeGoneThenBack() throws {
        // Both the config directory and its parent vanish: the nearest ancestor is watched.
        try FileManager.default.removeItem(atPath: root.path)
        XCTAssertTrue(reloadsAfterDebounce())
        try root.mkdir("conf/images")
        try root.write("conf/carouseld.conf", "interval = 3\n")
        XCTAssertTrue(reloadsAfterDebounce(at: 20))
        try root.write("conf/carouseld.conf", "interval = 4\n")
        XCTAssertTrue(reloadsAfterDebounce(at: 30))
    }

    func testMediaDirectoryReplacedByRename() throws {
        try root.mkdir("staging")
        try root.writeBytes("staging/n.jpg", ConfigTestDirectory.pngSignature)
        XCTAssertEqual(rename(images, root.url("conf/images.old")), 0)
        XCTAssertEqual(rename(root.url("staging"), images), 0)
        XCTAssertTrue(reloadsAfterDebounce())
        try root.writeBytes("conf/images.old/ignored.jpg", ConfigTestDirectory.pngSignature)
        XCTAssertFalse(reloadsAfterDebounce(at: 20), "the old directory is no longer watched")
        try root.writeBytes("conf/images/m.jpg", ConfigTestDirectory.pngSignature)
        XCTAssertTrue(reloadsAfterDebounce(at: 30), "the new one is")
    }

    /// Deploying by swapping a symlink (`ln -sfn release-2 conf`, which renames a new link over).
    func testConfigDirectorySymlinkSwapped() throws {
        for release in ["release-1", "release-2"] {
            try root.mkdir("\(release)/images")
            try root.write("\(release)/carouseld.conf", "interval = 3\n")
        }
        try root.symlink("current", to: root.url("release-1"))
        watcher = try ConfigWatcher(configDirectory: root.url("current"), mediaDirectory: root.url("current/images"))
        try root.symlink(".current.new", to: root.url("release-2"))
        XCTAssertEqual(rename(root.url(".current.new"), root.url("current")), 0)
        XCTAssertTrue(reloadsAfterDebounce())
        try root.write("release-1/carouseld.conf", "interval = 1\n")
        XCTAssertFalse(reloadsAfterDebounce(at: 20), "the old release is no longer watched")
        try root.write("release-2/carouseld.conf", "interval = 2\n")
        XCTAssertTrue(reloadsAfterDebounce(at: 30), "the new one is")
        try root.writeBytes("release-2/images/n.png", ConfigTestDirectory.pngSignature)
        XCTAssertTrue(reloadsAfterDebounce(at: 40), "and its images")
    }

    func testSetMediaDirectoryMovesTheWatch() throws {
        try root.mkdir("elsewhere")
        watcher.handleReadable(now: 1)
        _ = watcher.fire(now: 2) // the mkdir above, seen through the config directory's parent
        watcher.setMediaDirectory(root.url("elsewhere"))
        try root.writeBytes("conf/images/b.jpg", ConfigTestDirectory.pngSignature)
        XCTAssertFalse(reloadsAfterDebounce())
        try root.writeBytes("elsewhere/b.jpg", ConfigTestDirectory.pngSignature)
        XCTAssertTrue(reloadsAfterDebounce(at: 20))
    }

    func testQueueOverflowForcesRescanAndKeepsWatching() throws {
        let max = Int((try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 16384
        // Writes alternating between two files queue IN_MODIFY events that differ from their
        // predecessor, so inotify cannot merge them: the queue overflows.
        let a = open(root.url("conf/images/c.jpg"), O_WRONLY | O_CREAT, 0o644)
        let b = open(root.url("conf/images/d.jpg"), O_WRONLY | O_CREAT, 0o644)
        XCTAssertGreaterThanOrEqual(min(a, b), 0)
        for _ in 0...(max / 2 + 16) {
            _ = write(a, "x", 1)
            _ = write(b, "x", 1)
        }
        close(a)
        close(b)
        XCTAssertTrue(reloadsAfterDebounce())
        XCTAssertEqual(watcher.overflowCount, 1)
        try root.write("conf/carouseld.conf", "interval = 2\n")
        XCTAssertTrue(reloadsAfterDebounce(at: 20), "still watching after the overflow")
    }
}
