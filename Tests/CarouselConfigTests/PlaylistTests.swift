@testable import CarouselConfig
@testable import CarouselCore
import Foundation
import Glibc
import XCTest
import TestSupport

/// playlist.m3u and the media directory listing: EXTINF, comments, natural order, containment.
final class PlaylistTests: XCTestCase {
    func testNaturalOrderWithoutPlaylist() throws {
        let dir = try ConfigTestDirectory.withImages(["img10.jpg", "img2.png", "IMG1.JPEG", "img1.webp", "b.jpg",
                                                      "notes.txt", ".img3.jpg.Xa81Qz", "img3.jpg~"])
        let loaded = try ConfigLoader.load(directory: dir.path)
        XCTAssertNil(loaded.playlistFile)
        XCTAssertEqual(loaded.playlist.map(\.name), ["b.jpg", "IMG1.JPEG", "img1.webp", "img2.png", "img10.jpg"])
        XCTAssertEqual(loaded.playlist.first?.path, dir.path + "/images/b.jpg")
        XCTAssertEqual(loaded.mediaDirectory, dir.path + "/images")
    }

    func testNaturalOrderComparesNumbersByValue() {
        let names = ["a100", "a20", "a3", "a03b", "b", "A1"]
        XCTAssertEqual(names.sorted(by: NaturalOrder.areInIncreasingOrder), ["A1", "a3", "a03b", "a20", "a100", "b"])
    }

    func testPlaylistOrderExtinfAndComments() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg", "c.jpg"])
        try dir.mkdir("images/sub")
        try dir.writeBytes("images/sub/d.png", ConfigTestDirectory.pngSignature)
        try dir.write("playlist.m3u", """
            #EXTM3U
            # the beach first
            #EXTINF:12.5,Beach at noon
            c.jpg

            a.jpg
            #EXTINF:-1,No duration
              ./sub//d.png\r
            #EXTINF:3
            b.jpg
            """)
        let loaded = try ConfigLoader.load(directory: dir.path)
        XCTAssertEqual(loaded.playlistFile, dir.url("playlist.m3u"))
        XCTAssertEqual(loaded.playlist, [
            PlaylistItem(path: dir.url("images/c.jpg"), duration: 12.5, title: "Beach at noon"),
            PlaylistItem(path: dir.url("images/a.jpg")),
            PlaylistItem(path: dir.url("images/sub/d.png"), duration: nil, title: "No duration"),
            PlaylistItem(path: dir.url("images/b.jpg"), duration: 3),
        ])
        XCTAssertEqual(loaded.itemDurations, [12.5, nil, nil, 3])
        XCTAssertEqual(loaded.warnings, [])
    }

    func testOutsideEntriesAreRefusedWithFileAndLine() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"])
        try dir.writeBytes("secret.jpg", ConfigTestDirectory.pngSignature)
        try dir.symlink("images/escape.jpg", to: dir.url("secret.jpg"))
        try dir.symlink("images/inside.jpg", to: "a.jpg")
        let list = try dir.write("playlist.m3u", "../secret.jpg\n\(dir.url("secret.jpg"))\nescape.jpg\ninside.jpg\nmissing.jpg\n#EXTINF:abc,x\na.jpg\n../images/a.jpg\n")
        let loaded = try ConfigLoader.load(directory: dir.path)
        XCTAssertEqual(loaded.playlist.map(\.path), [dir.url("images/inside.jpg"), dir.url("images/a.jpg"),
                                                     MediaDirectory.realPath(dir.url("images/a.jpg"))!])
        let media = dir.url("images")
        // Several refused entries are one line (ConfigProblemSummaryTests); each is named.
        XCTAssertEqual(loaded.warnings, [
            "\(list): 3 entries outside the media directory \(media); refused: line 1 ../secret.jpg, "
                + "line 2 \(dir.url("secret.jpg")), line 3 escape.jpg",
            "\(list):5: missing.jpg: not found in \(media); skipped",
            "\(list):6: #EXTINF: \"abc\" is not a number of seconds; the item uses the default interval",
        ])
    }

    func testEscapingSymlinkInListingIsRefused() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"])
        try dir.writeBytes("outside.png", ConfigTestDirectory.pngSignature)
        try dir.symlink("images/z.png", to: dir.url("outside.png"))
        let loaded = try ConfigLoader.load(directory: dir.path)
        XCTAssertEqual(loaded.playlist.map(\.name), ["a.jpg"])
        XCTAssertEqual(loaded.warnings.count, 1)
        XCTAssertTrue(loaded.warnings[0].hasPrefix(dir.url("images/z.png") + ": z.png: resolves to "), loaded.warnings[0])
    }

    func testPlaylistWithNoPlayableEntryIsAnError() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"])
        try dir.write("playlist.m3u", "# all gone\ngone.jpg\n")
        XCTAssertThrowsError(try ConfigLoader.load(directory: dir.path)) { error in
            XCTAssertEqual((error as? ConfigLoadError)?.problems, ["\(dir.url("playlist.m3u")): playlist: no playable entries"])
        }
    }

    // MARK: - Hostile inputs

    /// The issue's playlist of 100 000 lines (1.8 MB) was refused whole ("file is too large"),
    /// so the box showed nothing. Now the first 10 000 entries show, with one warning naming
    /// the file and the line where it was cut.
    func testPlaylistOf100000LinesIsCutAtTheEntryLimit() throws {
        let dir = try ConfigTestDirectory.withImages([])
        try dir.mkdir("images/sub/dir")
        try dir.writeBytes("images/sub/dir/photo.jpg", ConfigTestDirectory.pngSignature)
        let line = "sub/dir/photo.jpg\n"
        let list = try dir.write("playlist.m3u", "#EXTM3U\n" + String(repeating: line, count: 100_000))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: list)[.size] as? Int, 8 + 1_800_000)
        let start = Date()
        let loaded = try ConfigLoader.load(directory: dir.path)
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        XCTAssertEqual(loaded.playlist.count, PlaylistParser.maxEntries)
        XCTAssertEqual(loaded.playlist.first?.path, dir.url("images/sub/dir/photo.jpg"))
        XCTAssertEqual(loaded.warnings, ["\(list):10002: playlist: cut here: more than 10000 entries, the limit; "
                                         + "this line and the 89999 after it are ignored"])
    }

    /// Past the 4 MB byte cap only whole lines are kept, with a warning; never an error.
    func testPlaylistOverTheByteCapIsCutAfterItsLastWholeLine() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg"])
        let comment = "# " + String(repeating: "x", count: 97) + "\n" // 100 bytes
        let comments = (PlaylistParser.maxBytes - 6) / 100 + 10
        let list = try dir.write("playlist.m3u", "a.jpg\n" + String(repeating: comment, count: comments) + "b.jpg\n")
        let loaded = try ConfigLoader.load(directory: dir.path)
        XCTAssertEqual(loaded.playlist.map(\.name), ["a.jpg"])
        let kept = 1 + (PlaylistParser.maxBytes - 6) / 100
        XCTAssertEqual(loaded.warnings, ["\(list):\(kept + 1): playlist: cut here: the file is larger than 4 MB, the limit; "
                                         + "this line and the rest are ignored"])
    }
}
