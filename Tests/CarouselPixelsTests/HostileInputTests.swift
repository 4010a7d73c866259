@testable import CarouselCore
import CarouselEngine
import Foundation
import Glibc
import XCTest
@testable import CarouselPixels
import TestSupport
import CoreTestSupport
import PixelsTestSupport

/// Hostile picture files, made by the tests (sparse or small, nothing big committed): each is
/// refused with a reason naming what is wrong, from its header where it can be, without the
/// process growing by the file's size and in bounded time; the good pictures still decode.
final class HostileInputTests: XCTestCase {
    var dir = ""
    var goodJPEG: [UInt8] = []

    override func setUpWithError() throws {
        dir = try TestPictures.temporaryDirectory(self)
        goodJPEG = try TestPictures.jpeg(TestPictures.stripes([0xE04030, 0x3060D0], width: 64, height: 48))
    }

    /// The reason the daemon would skip a file (its one decode path), or nil.
    func skipReason(_ path: String, maxPixels: Int = 100_000_000) -> String? {
        do {
            _ = try ImageDecoder.makeCard(path: path, spec: CardSpec(width: 32, height: 24, maxImagePixels: maxPixels))
            return nil
        } catch { return error.description }
    }

    // MARK: - A 1 GB file named .jpg

    func testGigabyteFileIsRefusedBeforeItIsRead() throws {
        // A real JPEG header followed by 1 GB of nothing (sparse: no disk, no time).
        let huge = try TestPictures.write(goodJPEG, "\(dir)/huge.jpg")
        XCTAssertEqual(truncate(huge, 1 << 30), 0)
        // 1 GB of zeros named .jpg: no picture at all, judged by its first bytes.
        let zeros = try TestPictures.write([], "\(dir)/zeros.jpg")
        XCTAssertEqual(truncate(zeros, 1 << 30), 0)
        let good = try TestPictures.write(goodJPEG, "\(dir)/good.jpg")

        var reasons: [String?] = []
        var probeError: ImageError?
        let growth = try peakRSSGrowth {
            reasons = [skipReason(huge), skipReason(zeros), skipReason(good)]
            do { _ = try ImageDecoder.probe(path: huge, maxPixels: 100_000_000) } catch { probeError = error as? ImageError }
        }
        XCTAssertEqual(reasons[0], "file is 1073741824 bytes, more than the 256 MB a picture may have; refused before reading it")
        XCTAssertEqual(reasons[1], "not a JPEG, PNG or WebP image despite its .jpg extension (unrecognised content)")
        XCTAssertNil(reasons[2])
        XCTAssertEqual(probeError, .fileTooLarge(bytes: 1 << 30, limit: ImageFile.maxFileBytes), "render's probe refuses it too")
        // Before: each was read whole, 1 GB of RSS. Now only a 256 KB header prefix is read.
        XCTAssertLessThan(growth, 64 << 20, "peak RSS grew by \(growth >> 20) MB")
        print("1 GB .jpg files: peak RSS growth \(growth >> 10) KB")

        // Through the image store, as the daemon runs it: one line each, the good one drawn.
        let lines = capturingLog {
            let store = ImageStore(paths: [huge, good, zeros], spec: CardSpec(width: 32, height: 24))
            store.waitUntilLoaded(indices: [0, 1, 2])
            XCTAssertNil(store.failure(at: 1))
            XCTAssertEqual(store.drainReady().ready, [1])
        }
        XCTAssertEqual(lines.map(\.1).sorted(), ["skipping \(huge): \(reasons[0]!)", "skipping \(zeros): \(reasons[1]!)"])
    }

    // MARK: - A PNG decompression bomb

    func testPNGBombIsRefusedFromItsHeader() throws {
        // 30000x30000 RGB declared in IHDR: 2.7 GB of pixels from a file of 76 bytes.
        var ihdr = bigEndian(30000) + bigEndian(30000)
        ihdr += [8, 2, 0, 0, 0]
        let bytes = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
            + chunk("IDAT", [0x78, 0x9C, 0xED, 0xC1, 0x01, 0x0D, 0x00, 0x00, 0x00, 0xC2, 0xA0, 0xF7, 0x4F, 0x6D, 0x0E, 0x37, 0xA0, 0x00, 0x00])
            + chunk("IEND", [])
        let path = try TestPictures.write(bytes, "\(dir)/bomb.png")
        var reason: String?
        let growth = try peakRSSGrowth { reason = skipReason(path) }
        XCTAssertEqual(reason, "header declares 30000x30000 = 900000000 pixels, more than max_image_pixels 100000000; refused before decoding")
        XCTAssertLessThan(growth, 64 << 20, "peak RSS grew by \(growth >> 20) MB")
        let lines = capturingLog {
            let store = ImageStore(paths: [path], spec: CardSpec(width: 32, height: 24))
            store.waitUntilLoaded(indices: [0])
        }
        XCTAssertEqual(lines.map(\.1), ["skipping \(path): \(reason ?? "")"])
    }

    // MARK: - JPEG markers that go on and on

    func testEndlessJPEGMarkersFailInBoundedTime() throws {
        // SOI, then 200 comment segments of 64 KB (13 MB) and no frame: libjpeg walks them once
        // (the file is under the 256 MB cap) and finds no frame size.
        var comments: [UInt8] = [0xFF, 0xD8]
        let body = [UInt8](repeating: 0x41, count: 65533)
        for _ in 0..<200 { comments += [0xFF, 0xFE, 0xFF, 0xFF] + body }
        comments += [0xFF, 0xD9]
        let endless = try TestPictures.write(comments, "\(dir)/comments.jpg")
        // Segment lengths below 2 would point back into their own marker: libjpeg never steps
        // back, it moves on to the next marker, so the picture behind them still shows.
        let back = try TestPictures.write([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x00, 0xFF, 0xE1, 0x00, 0x01] + Array(goodJPEG.dropFirst(2)),
                                          "\(dir)/back.jpg")
        // 30 000 empty APP5 segments before a real picture: long, but a picture.
        let soi: [UInt8] = [0xFF, 0xD8], picture = [UInt8](goodJPEG.dropFirst(2))
        let emptyAPP5: [UInt8] = [0xFF, 0xE5, 0x00, 0x02]
        let many = try TestPictures.write(soi + Array(repeating: emptyAPP5, count: 30_000).flatMap { $0 } + picture,
                                          "\(dir)/many.jpg")
        // Big EXIF/ICC blocks (5 x 64 KB) before the frame header: read past the first 256 KB.
        let bigAPP2: [UInt8] = [0xFF, 0xE2, 0xFF, 0xFF] + body
        let late = try TestPictures.write(soi + Array(repeating: bigAPP2, count: 5).flatMap { $0 } + picture, "\(dir)/late.jpg")
        for (path, expected) in [(endless, "corrupt image data (header declares 0x0)"), (back, nil), (many, nil), (late, nil)]
            as [(String, String?)] {
            let start = Date()
            let reason = skipReason(path)
            let seconds = Date().timeIntervalSince(start)
            XCTAssertLessThan(seconds, 5, "\(path) took \(seconds) s")
            if let expected {
                let text = try XCTUnwrap(reason, path)
                XCTAssertTrue(text.contains(expected), text)
            } else {
                XCTAssertNil(reason, "\(path)")
            }
            print("\((path as NSString).lastPathComponent): \(reason ?? "decoded") in \(String(format: "%.3f", seconds)) s")
        }
    }

    // MARK: - Helpers

    /// How much the peak RSS of this process grew while `body` ran, in bytes (the kernel's
    /// high-water mark, reset first through /proc/self/clear_refs).
    func peakRSSGrowth(_ body: () throws -> Void) throws -> Int {
        func status(_ key: String) throws -> Int {
            let text = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix(key + ":") })
            return try XCTUnwrap(Int(line.split(separator: " ")[1])) * 1024
        }
        // Under qemu-user (the arm64 stage) the emulator's own translation of the code just run
        // can grow the RSS between the reset and the read: reset until the mark holds, up to 3 times.
        var before = 0, mark = Int.max
        for _ in 0..<3 where mark > before + (1 << 20) {
            try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
            before = try status("VmRSS")
            mark = try status("VmHWM")
        }
        XCTAssertLessThanOrEqual(mark, before + (1 << 20), "the high-water mark was reset")
        try body()
        return try status("VmHWM") - before
    }

    func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }

    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }
}
