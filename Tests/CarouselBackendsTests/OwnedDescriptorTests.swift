@testable import CarouselBackends
@testable import CarouselCore
import Glibc
import XCTest
import TestSupport

/// Descriptors are closed by their owner's end, exactly once, on every path.
final class OwnedDescriptorTests: XCTestCase {
    private func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 }

    func testClosedWhenTheOwnerGoesAway() throws {
        var raw: Int32 = -1
        do {
            let owned = try OwnedDescriptor("open") { open("/dev/null", O_RDONLY | O_CLOEXEC) }
            raw = owned.rawValue
            XCTAssertTrue(isOpen(raw))
        }
        XCTAssertFalse(isOpen(raw), "closed at the end of its scope")
    }

    func testAFailedOpenThrowsTheCallAndErrno() {
        XCTAssertThrowsError(try { _ = try OwnedDescriptor("open") { open("/nonexistent/x", O_RDONLY) } }()) { error in
            XCTAssertEqual("\(error)", "open: No such file or directory")
        }
    }

    /// The descriptor a throwing initialiser opened is closed by the throw, with no close call.
    func testAThrowAfterTheOpenClosesIt() throws {
        struct Refused: Error {}
        var raw: Int32 = -1
        func openThenRefuse() throws {
            let owned = try OwnedDescriptor("open") { open("/dev/null", O_RDONLY | O_CLOEXEC) }
            raw = owned.rawValue
            throw Refused()
        }
        XCTAssertThrowsError(try openThenRefuse())
        XCTAssertFalse(isOpen(raw))
    }

    func testRegularFileRefusesFifosAndDirectoriesWithoutBlocking() throws {
        let dir = try TestPictures.temporaryDirectory(self)
        XCTAssertEqual(mkfifo("\(dir)/fifo", 0o600), 0)
        func failure(_ path: String) -> RegularFile.OpenFailure? {
            do { _ = try RegularFile(path); return nil } catch { return error }
        }
        XCTAssertEqual(failure("\(dir)/fifo"), .notRegularFile, "refused at once: the open does not wait for a writer")
        XCTAssertEqual(failure(dir), .notRegularFile)
        XCTAssertEqual(failure("\(dir)/missing"), .missing)
        let fd = open("\(dir)/f", O_WRONLY | O_CREAT, 0o600)
        XCTAssertEqual(write(fd, "hello", 5), 5)
        close(fd)
        let file = try RegularFile("\(dir)/f")
        XCTAssertEqual(file.size, 5)
        var bytes = [UInt8](repeating: 0, count: 8)
        XCTAssertEqual(try file.read(into: &bytes, from: 2), 3, "to the end of the file, at the same offset")
        XCTAssertEqual(Array(bytes[2..<5]), Array("llo".utf8))
    }

    /// libdrm, libudev and libinput objects: freed once when their handle goes, never for NULL.
    func testCHandleReleasesOnceAndNeverNull() {
        var released: [Int] = []
        let box = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        defer { box.deallocate() }
        box.pointee = 7
        do {
            guard let handle = CHandle(box, release: { released.append($0.pointee) }) else { return XCTFail("not nil") }
            XCTAssertEqual(handle.pointer.pointee, 7)
            XCTAssertEqual(released, [], "alive while in scope")
        }
        XCTAssertEqual(released, [7])
        let none: UnsafeMutablePointer<Int>? = nil
        if CHandle(none, release: { released.append($0.pointee) }) != nil { XCTFail("NULL gives no handle") }
        XCTAssertEqual(released, [7], "NULL is never released")
    }

    /// A real libudev object through its handle, as the display's hotplug monitor holds it.
    func testUdevMonitorOpensAndClosesItsSocket() throws {
        var fd: Int32 = -1
        do {
            let monitor = try XCTUnwrap(UdevMonitor(subsystems: ["drm"]), "a udev netlink monitor")
            fd = monitor.fd
            XCTAssertTrue(isOpen(fd))
        }
        XCTAssertFalse(isOpen(fd), "udev_monitor_unref closed the netlink socket")
    }
}
