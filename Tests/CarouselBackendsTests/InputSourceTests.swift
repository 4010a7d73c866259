@testable import CarouselBackends
@testable import CarouselConfig
@testable import CarouselCore
import XCTest
import CarouselEngine
import Glibc

/// The live libinput context, on a machine with no input devices (CI): it must start, hand out
/// a pollable fd, and say once that it runs as a slideshow. Devices are tested in the VM.
final class InputSourceTests: XCTestCase {
    func testStartsWithoutDevicesAndSaysSoOnce() throws {
        var logged: [String] = []
        Log.sink = { _, line in logged.append(line) }
        defer { Log.sink = nil }
        let source = try InputSource(settings: ShellSettings(), screen: Size(width: 1280, height: 800))
        XCTAssertGreaterThanOrEqual(source.fd, 0)
        XCTAssertNotEqual(fcntl(source.fd, F_GETFD), -1, "libinput's fd is open")
        XCTAssertTrue(source.dispatch().isEmpty)
        XCTAssertTrue(source.dispatch().isEmpty)
        XCTAssertEqual(logged.filter { $0 == "no touch device; running as a slideshow" }.count, 1, "\(logged)")
    }
}
