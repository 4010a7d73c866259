@testable import CarouselBackends
@testable import CarouselCore
import XCTest
import CarouselEngine
@testable import carouseld
import CoreTestSupport

/// Reading `libinput record` files: the structure, and errors that name the file and the line.
final class RecordingParserTests: XCTestCase {
    private func sample() -> RecordingBuilder {
        var b = RecordingBuilder()
        b.drag(from: (60, 50), to: (40, 50), start: 0.1, duration: 0.05, interval: 0.025)
        return b
    }

    func testReadsDevicesAbsinfoAndFrames() throws {
        let r = try RecordingParser.parse(sample().yaml(), path: "s.yml")
        XCTAssertEqual(r.devices.count, 1)
        let d = r.devices[0]
        XCTAssertEqual(d.name, "carousel test touchscreen")
        XCTAssertEqual(d.absinfo[53], AbsInfo(minimum: 0, maximum: 4095, fuzz: 0, flat: 0, resolution: 16))
        XCTAssertEqual(d.absinfo[47]?.maximum, 9)
        XCTAssertEqual(d.properties, [1])
        XCTAssertEqual(d.codes[3], [0, 1, 47, 53, 54, 57])
        XCTAssertEqual(d.frames.count, 4)  // down, 2 moves, up
        XCTAssertEqual(d.frames[0].events.first, EvdevEvent(usec: 100_000, type: 3, code: 47, value: 0))
        XCTAssertEqual(d.frames[1].time, 0.125, accuracy: 1e-12)
        XCTAssertEqual(d.frames[3].events.last, EvdevEvent(usec: 150_000, type: 0, code: 0, value: 0))
    }

    func testIgnoresKeysAndEntriesTheFormatDoesNotDefine() throws {
        let text = sample().yaml()
            .replacingOccurrences(of: "  events:\n", with: "  quirks: [AttrSizeHint=10x10]\n  future_key: {a: 1}\n  events:\n  - libinput:\n    - {time: 0.0, type: DEVICE_ADDED}\n")
        let r = try RecordingParser.parse(text, path: "s.yml")
        XCTAssertEqual(r.devices[0].frames.count, 4)
    }

    func testDeviceWithoutEventsHasNoFrames() throws {
        let text = sample().yaml().components(separatedBy: "  events:")[0] + "  events:\n"
        XCTAssertEqual(try RecordingParser.parse(text, path: "s.yml").devices[0].frames.count, 0)
    }

    // MARK: malformed files: the file and the line of the problem

    /// Replaces line `n` (1-based) of a valid recording and expects an error on exactly that line.
    private func assertError(replacingLine n: Int, with text: String, mentions: String,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        var lines = sample().yaml().components(separatedBy: "\n")
        lines[n - 1] = text
        let path = try RecordingBuilder.write(lines.joined(separator: "\n"), named: "malformed")
        XCTAssertThrowsError(try Replay(config: CarouselConfig(), screen: Size(width: 800, height: 600), itemCount: 3)
            .lines(path: path), file: file, line: line) { error in
            guard let e = error as? RecordingError else { return XCTFail("not a RecordingError: \(error)", file: file, line: line) }
            XCTAssertEqual(e.path, path, file: file, line: line)
            XCTAssertEqual(e.line, n, "\(e)", file: file, line: line)
            XCTAssert(e.description.hasPrefix("\(path):\(n): "), e.description, file: file, line: line)
            XCTAssert(e.message.contains(mentions), e.message, file: file, line: line)
        }
    }

    private func lineNumber(of needle: String) -> Int {
        sample().yaml().components(separatedBy: "\n").firstIndex { $0.contains(needle) }! + 1
    }

    func testYamlSyntaxErrorNamesItsLine() throws {
        let n = lineNumber(of: "      53: [")
        // libyaml notices the unclosed list on the next line; the message points back to where it began.
        var lines = sample().yaml().components(separatedBy: "\n")
        lines[n - 1] = "      53: [0, 4095, 0, 0, 16"
        XCTAssertThrowsError(try RecordingParser.parse(lines.joined(separator: "\n"), path: "r.yml")) { error in
            XCTAssertEqual("\(error)", "r.yml:\(n + 1): invalid YAML: did not find expected ',' or ']' "
                + "while parsing a flow sequence that starts on line \(n)")
        }
        try assertError(replacingLine: n, with: "      53: [0, 4095, 0, 0, 16]]", mentions: "invalid YAML")
    }

    func testEventWithFourNumbersNamesItsLine() throws {
        let n = lineNumber(of: "- [0, 125000, 3, 53,")
        try assertError(replacingLine: n, with: "    - [0, 125000, 3, 53]", mentions: "needs 5 numbers")
    }

    func testNonNumericValueNamesItsLine() throws {
        let n = lineNumber(of: "- [0, 125000, 3, 53,")
        try assertError(replacingLine: n, with: "    - [0, 125000, 3, 53, left]", mentions: "'left'")
    }

    func testFrameNotEndingInSynReportNamesItsLastEvent() throws {
        let n = lineNumber(of: "- [0, 150000, 0, 0, 0]")
        try assertError(replacingLine: n, with: "    - [0, 150000, 3, 53, 7]", mentions: "SYN_REPORT")
    }

    func testBadAbsinfoNamesItsLine() throws {
        let n = lineNumber(of: "      54: [")
        try assertError(replacingLine: n, with: "      54: [0, 4095, 0]", mentions: "absinfo needs 5 numbers")
        try assertError(replacingLine: n, with: "      54: [4095, 0, 0, 0, 0]", mentions: "not above minimum")
    }

    func testOutOfRangeMicrosecondsNamesItsLine() throws {
        let n = lineNumber(of: "- [0, 125000, 3, 53,")
        try assertError(replacingLine: n, with: "    - [0, 1250000, 3, 53, 7]", mentions: "out of range")
    }

    /// Hostile input: times going backwards are refused with the line and both times, so a
    /// replay is never a guess (the recording is damaged or edited; libinput writes them in order).
    func testTimestampGoingBackwardsIsRefusedWithItsLine() throws {
        let n = lineNumber(of: "- [0, 125000, 3, 53,")
        try assertError(replacingLine: n, with: "    - [0, 90000, 3, 53, 7]",
                        mentions: "timestamp 0.090000 s goes back from 0.1")
        // Backwards across frames (the second move stamped before the first), too.
        let m = lineNumber(of: "- [0, 150000, 0, 0, 0]")
        try assertError(replacingLine: m, with: "    - [0, 120000, 0, 0, 0]", mentions: "goes back from 0.150000 s")
    }

    // Found by scripts/fuzz (fuzz-recording): each of these trapped or stalled the replay.

    func testSecondsTooLargeForMicrosecondsNameTheirLine() throws {
        // Was an arithmetic-overflow trap turning seconds into 64-bit microseconds.
        let n = lineNumber(of: "- [0, 125000, 3, 53,")
        try assertError(replacingLine: n, with: "    - [9223372036854775807, 125000, 3, 53, 7]", mentions: "out of range")
    }

    func testAbsinfoWiderThan32BitsNamesItsLine() throws {
        // Was an arithmetic-overflow trap in PanelMapping.transformed on the first touch.
        let n = lineNumber(of: "      53: [")
        try assertError(replacingLine: n, with: "      53: [-9223372036854775808, 9223372036854775807, 0, 0, 16]",
                        mentions: "fit 32 bits")
    }

    func testDeviceWithTooManySlotsIsRefusedQuickly() throws {
        // ABS_MT_SLOT given twice, the second time [0, 65535]: 65536 slots walked at every
        // SYN_REPORT made fuzz-recording time out (> 10 s for one small file).
        let n = lineNumber(of: "      47: [")
        var lines = sample().yaml().components(separatedBy: "\n")
        lines[n - 1] = "      47: [0, 65535, 0, 0, 0]"
        let path = try RecordingBuilder.write(lines.joined(separator: "\n"), named: "slots")
        XCTAssertThrowsError(try Replay(config: CarouselConfig(), screen: Size(width: 800, height: 600), itemCount: 3)
            .lines(path: path)) { error in
            XCTAssertEqual((error as? RecordingError)?.line, self.lineNumber(of: "- node:"))
            XCTAssert("\(error)".contains("has 65536 touch slots; at most 256"), "\(error)")
        }
    }

    func testNotARecordingAtAll() {
        XCTAssertThrowsError(try RecordingParser.parse("hello: world\n", path: "x.yml")) { error in
            XCTAssertEqual((error as? RecordingError)?.description, "x.yml:1: no 'devices' list: not a libinput recording")
        }
        XCTAssertThrowsError(try RecordingParser.parse("version: 1\ndevices: 3\n", path: "x.yml")) { error in
            XCTAssertEqual((error as? RecordingError)?.line, 2)
        }
    }

    func testMissingFileNamesTheFile() {
        XCTAssertThrowsError(try RecordingParser.load(path: "/nonexistent/rec.yml")) { error in
            XCTAssert("\(error)".hasPrefix("/nonexistent/rec.yml: cannot read the file"), "\(error)")
        }
    }

    func testProtocolADeviceIsRefusedWithTheDevicesLine() throws {
        let text = sample().yaml().replacingOccurrences(of: "3: [0, 1, 47, 53, 54, 57]", with: "3: [0, 1, 53, 54, 57]")
        let r = try RecordingParser.parse(text, path: "a.yml")
        XCTAssertThrowsError(try EvdevDecoder(id: 0, device: r.devices[0], panel: Size(width: 10, height: 10), path: "a.yml")) { error in
            let e = error as? RecordingError
            XCTAssertEqual(e?.line, self.lineNumber(of: "- node:"))
            XCTAssert(e?.message.contains("protocol A") == true, "\(error)")
        }
    }
}
