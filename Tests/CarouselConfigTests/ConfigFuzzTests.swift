@testable import CarouselConfig
import CarouselEngine
import XCTest
import TestSupport

/// Random bytes and random mutations of a valid file: the parser never crashes, and every
/// input ends as either a valid config or at least one `file:line: key: message` problem.
final class ConfigFuzzTests: XCTestCase {
    static let validFile = """
        # carouseld
        interval = 4
        card_width = "70%"
        card_height = 600
        spacing = 32
        fit = "cover"
        background = "#101010"
        dots = true
        dot_color = "#606060"
        dots_position = "top"
        spring_response = 0.5
        rotation = 90
        mode = "1920x1080@60"
        output = "HDMI-A-1"
        cache_mb = 64
        [extra]
        note = 'ignored'
        """

    /// Pieces that make mutations reach deeper than random bytes alone.
    static let fragments: [String] = ["=", "\"", "'", "[", "]", "[[", "{", "}", ",", ".", "#", "\n", "\r\n",
        "\"\"\"", "'''", "\\u0000", "\\", "nan", "inf", "-inf", "1e400", "0x", "99999999999999999999", "true",
        "1979-05-27T07:32:00Z", "interval", "card_width", "\"80%\"", "\"-5%\"", "\u{0}", "é", "\u{FEFF}", "\t"]

    private func check(_ bytes: [UInt8], _ label: String) {
        let result = ConfigFileParser.parse(bytes: bytes, file: "fuzz.conf")
        if result.problems.isEmpty {
            XCTAssertEqual(result.config.validate(), [], "\(label): accepted an invalid config")
        }
        for problem in result.problems {
            XCTAssertTrue(problem.description.hasPrefix("fuzz.conf:"), "\(label): \(problem)")
            XCTAssertFalse(problem.key.isEmpty, "\(label): \(problem)")
            XCTAssertFalse(problem.message.isEmpty, "\(label): \(problem)")
        }
    }

    func testRandomByteStrings() {
        var rng = SplitMix64(seed: 0xC0FFEE)
        for i in 0..<3000 {
            let count = Int.random(in: 0...200, using: &rng)
            // Half printable ASCII (reaches the TOML grammar), half any byte.
            let printable = i % 2 == 0
            let bytes = (0..<count).map { _ in
                printable ? UInt8.random(in: 9...126, using: &rng) : UInt8.random(in: 0...255, using: &rng)
            }
            check(bytes, "random #\(i)")
        }
    }

    func testRandomMutationsOfAValidFile() {
        var rng = SplitMix64(seed: 42)
        let original = Array(Self.validFile.utf8)
        XCTAssertEqual(ConfigFileParser.parse(bytes: original, file: "fuzz.conf").problems, [])
        var accepted = 0
        for i in 0..<3000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let at = Int.random(in: 0...bytes.count, using: &rng)
                switch Int.random(in: 0..<5, using: &rng) {
                case 0 where at < bytes.count: bytes.remove(at: at)
                case 1 where at < bytes.count: bytes[at] = UInt8.random(in: 0...255, using: &rng)
                case 2: bytes.insert(contentsOf: Array(Self.fragments.randomElement(using: &rng)!.utf8), at: at)
                case 3 where at < bytes.count:
                    let end = min(bytes.count, at + Int.random(in: 1...40, using: &rng))
                    bytes.removeSubrange(at..<end)
                default:
                    // Duplicate a line elsewhere (duplicate keys, tables in odd places).
                    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                    if let line = lines.randomElement(using: &rng) { bytes.insert(contentsOf: line + [10], at: at) }
                }
            }
            let result = ConfigFileParser.parse(bytes: bytes, file: "fuzz.conf")
            if result.problems.isEmpty { accepted += 1 }
            check(bytes, "mutation #\(i)")
        }
        // Both outcomes must really occur, or the mutations are too weak or too strong.
        XCTAssertGreaterThan(accepted, 100)
        XCTAssertLessThan(accepted, 2900)
    }

    /// The whole loader on fuzzed files in a real directory (file reading, media, playlist).
    func testLoaderOnMutatedFilesAndPlaylists() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.png"])
        var rng = SplitMix64(seed: 7)
        let playlist = Array("#EXTM3U\n#EXTINF:5,A\na.jpg\n../x.jpg\nb.png\n".utf8)
        for i in 0..<200 {
            var conf = Array(Self.validFile.utf8), list = playlist
            for _ in 0..<3 {
                let at = Int.random(in: 0..<conf.count, using: &rng)
                conf[at] = UInt8.random(in: 0...255, using: &rng)
                let pat = Int.random(in: 0..<list.count, using: &rng)
                list[pat] = UInt8.random(in: 0...255, using: &rng)
            }
            try dir.writeBytes("carouseld.conf", conf)
            try dir.writeBytes("playlist.m3u", list)
            do {
                let loaded = try ConfigLoader.load(directory: dir.path)
                XCTAssertFalse(loaded.playlist.isEmpty, "#\(i)")
                XCTAssertEqual(loaded.config.validate(), [], "#\(i)")
            } catch {
                XCTAssertFalse(error.problems.isEmpty, "#\(i)")
            }
        }
    }
}
