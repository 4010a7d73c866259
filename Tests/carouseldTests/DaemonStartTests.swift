import ArgumentParser
import XCTest
@testable import carouseld

/// The daemon's start read without ArgumentParser gives what ArgumentParser gives, and leaves
/// to it every line it does not read itself.
final class DaemonStartTests: XCTestCase {
    /// ArgumentParser's reading of a `run` line (the default command), or nil where it refuses it.
    func parsed(_ line: [String]) -> DaemonOptions? {
        guard let command = try? Carouseld.parseAsRoot(line) as? RunCommand else { return nil }
        return command.options
    }

    func testPlainLinesReadAsArgumentParserReadsThem() {
        let lines: [[String]] = [
            ["run", "--config", "/etc/carouseld"],
            ["run"],
            [],
            ["--config", "/srv/signage"],
            ["run", "--config=/etc/carouseld", "--cache-dir", "/var/cache/carouseld", "--control", "/run/c/control"],
            ["run", "--output", "HDMI-A-1", "--mode", "1280x720@60", "--rotation", "90", "--backend", "drm", "--force-legacy"],
            ["run", "--backend=wayland", "--rotation=270"],
        ]
        for line in lines {
            let fast = DaemonStart.options(line)
            XCTAssertNotNil(fast, "\(line) is read without ArgumentParser")
            XCTAssertEqual(fast, parsed(line), "\(line)")
        }
    }

    func testEverythingElseIsLeftToArgumentParser() {
        let lines: [[String]] = [
            ["--help"], ["run", "--help"], ["-h"], ["--version"],
            ["render", "--config", "x"], ["run", "--config"], ["run", "--config", "--mode"],
            ["run", "--rotation", "45"], ["run", "--rotation", "ninety"], ["run", "--mode", "big"],
            ["run", "--backend", "x11"], ["run", "--unknown", "1"], ["run", "--config", "a", "--config", "b"],
            ["run", "--force-legacy", "--force-legacy"], ["run", "stray"], ["run", "--config", "-x"],
        ]
        for line in lines {
            XCTAssertNil(DaemonStart.options(line), "\(line)")
        }
        // The refusals among them are ArgumentParser's to word.
        for line in [["run", "--rotation", "45"], ["run", "--backend", "x11"], ["run", "--unknown", "1"]] {
            XCTAssertNil(parsed(line), "\(line) is refused by ArgumentParser too")
        }
    }
}
