@testable import CarouselConfig
@testable import CarouselCore
import Foundation
import XCTest

/// Parsing carouseld.conf again and again (every reload does) must not grow the process: the
/// toml++ document is freed after each parse. (TOMLKit, used before, leaked about 1 KB a parse.)
/// Prints the figures.
final class ConfigParseMemoryTests: XCTestCase {
    private func residentKB() throws -> Int {
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        return try XCTUnwrap(Int(statm[1])) * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }

    func testRepeatedParsesDoNotGrowMemory() throws {
        let text = Array("interval = 4\ncard_width = \"70%\"\nfit = \"cover\"\nbackground = \"#101010\"\n".utf8)
        let rounds = 20000
        _ = ConfigFileParser.parse(bytes: text, file: "a.conf")
        let start = try residentKB()
        var wrong = 0
        for _ in 0..<rounds where ConfigFileParser.parse(bytes: text, file: "a.conf").config.interval != 4 { wrong += 1 }
        let same = try residentKB() - start
        XCTAssertEqual(wrong, 0)

        let before = try residentKB()
        for i in 0..<rounds {
            let edited = Array("interval = \(i % 100)\ncard_width = \"70%\"\nfit = \"cover\"\n".utf8)
            if ConfigFileParser.parse(bytes: edited, file: "a.conf").config.interval != Double(i % 100) { wrong += 1 }
        }
        let changed = try residentKB() - before
        XCTAssertEqual(wrong, 0)
        print(String(format: "config parse memory: unchanged text %.0f bytes/reload, changed text %.0f bytes/reload ",
                     Double(same) * 1024 / Double(rounds), Double(changed) * 1024 / Double(rounds)))
        XCTAssertLessThan(Double(same) * 1024 / Double(rounds), 64, "parsing the same file again must not leak")
        XCTAssertLessThan(Double(changed) * 1024 / Double(rounds), 64, "parsing edited files must not leak")
    }
}
