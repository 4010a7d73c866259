@testable import CarouselCore
@testable import CarouselPixels
import Glibc
import XCTest

/// The kept start frame's file: read back only for its key and size, whole and unchanged.
final class KeptFrameFileTests: XCTestCase {
    private var path = ""
    private let (width, height) = (40, 30)

    override func setUp() {
        path = NSTemporaryDirectory() + "carouseld-kept-\(getpid())/screen.frame"
    }

    override func tearDown() {
        unlink(path)
        rmdir(String(path.dropLast("/screen.frame".count)))
    }

    /// A frame whose every pixel differs, in a buffer with a wider stride than its rows.
    private func frame() -> (PixelBuffer, UnsafeMutableRawPointer) {
        let stride = width * 4 + 16
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 16)
        for y in 0..<height { for x in 0..<width { memory.storeBytes(of: UInt32(0xFF00_0000 | (y << 8) | x), toByteOffset: y * stride + x * 4, as: UInt32.self) } }
        return (PixelBuffer(base: memory, width: width, height: height, stride: stride), memory)
    }

    func testAFrameIsReadBackForItsKeyAndSizeOnly() throws {
        let (buffer, memory) = frame()
        defer { memory.deallocate() }
        XCTAssertTrue(KeptFrameFile.write(buffer, key: 42, to: path), "its directory is made")
        let read = try XCTUnwrap(KeptFrameFile.read(path, key: 42, width: width, height: height))
        let target = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 16)
        defer { target.deallocate() }
        KeptFrameFile.copy(read, into: PixelBuffer(base: target, width: width, height: height, stride: width * 4))
        for y in 0..<height {
            for x in 0..<width {
                XCTAssertEqual(target.load(fromByteOffset: (y * width + x) * 4, as: UInt32.self), UInt32(0xFF00_0000 | (y << 8) | x))
            }
        }
        XCTAssertNil(KeptFrameFile.read(path, key: 43, width: width, height: height), "another config or pictures")
        XCTAssertNil(KeptFrameFile.read(path, key: 42, width: width + 1, height: height), "another screen size")
    }

    func testADamagedOrTruncatedFrameIsNeverShown() throws {
        let (buffer, memory) = frame()
        defer { memory.deallocate() }
        XCTAssertTrue(KeptFrameFile.write(buffer, key: 7, to: path))
        let fd = open(path, O_WRONLY)
        var byte: UInt8 = 0x55
        XCTAssertEqual(pwrite(fd, &byte, 1, 6 * 8 + 100), 1)
        close(fd)
        XCTAssertNil(KeptFrameFile.read(path, key: 7, width: width, height: height), "a changed pixel fails the checksum")
        XCTAssertNotEqual(access(path, F_OK), 0, "and the damaged file is removed")
        XCTAssertTrue(KeptFrameFile.write(buffer, key: 7, to: path))
        XCTAssertEqual(truncate(path, off_t(6 * 8 + width * height * 4 - 4)), 0)
        XCTAssertNil(KeptFrameFile.read(path, key: 7, width: width, height: height), "a truncated file")
    }

    /// What a power cut leaves of a frame being written (issue 44): an empty file (ext4's delayed
    /// allocation after the rename), a file cut anywhere, zeros where the data was not yet
    /// written. Each is one log line, removed, never shown; a frame merely made for another
    /// screen size is left alone and unsaid.
    func testWhatAPowerCutLeavesIsDroppedWithOneLineEach() throws {
        let (buffer, memory) = frame()
        defer { memory.deallocate() }
        var logged: [String] = []
        Log.sink = { _, line in logged.append(line) }
        defer { Log.sink = nil }
        let whole = 6 * 8 + width * height * 4
        for cut in [0, 3, 6 * 8, 6 * 8 + 1, whole / 2, whole - 1] {
            XCTAssertTrue(KeptFrameFile.write(buffer, key: 7, to: path))
            XCTAssertEqual(truncate(path, off_t(cut)), 0)
            XCTAssertNil(KeptFrameFile.read(path, key: 7, width: width, height: height), "cut at \(cut)")
            XCTAssertNotEqual(access(path, F_OK), 0, "removed (cut at \(cut))")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertEqual(ftruncate(fd, off_t(whole)), 0, "zeros: the size was written, the data not")
        close(fd)
        XCTAssertNil(KeptFrameFile.read(path, key: 7, width: width, height: height))
        XCTAssertEqual(logged.count, 7, "\(logged)")
        XCTAssertTrue(logged.allSatisfy { $0.hasPrefix("kept frame \(path): cut short") }, "\(logged)")

        XCTAssertTrue(KeptFrameFile.write(buffer, key: 7, to: path))
        XCTAssertNil(KeptFrameFile.read(path, key: 7, width: width * 2, height: height))
        XCTAssertEqual(access(path, F_OK), 0, "another screen's frame stays")
        XCTAssertEqual(logged.count, 7)
    }
}
