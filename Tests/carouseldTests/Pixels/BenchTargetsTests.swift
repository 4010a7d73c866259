import XCTest
@testable import carouseld
@testable import CarouselPixels

/// What `bench --photos` measures against: a progressive JPEG's coefficient arrays from its
/// frame header, the per-picture and paging targets, and where the floor's memory is.
final class BenchTargetsTests: XCTestCase {
    /// SOF2 for a 3-component picture with the given sampling factors (luma first).
    func frameHeader(width: Int, height: Int, factors: [UInt8]) -> [UInt8] {
        var segment: [UInt8] = [0xFF, 0xC2, 0x00, UInt8(8 + 3 * factors.count), 8,
                                UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
                                UInt8(factors.count)]
        for (index, factor) in factors.enumerated() { segment += [UInt8(index + 1), factor, 0] }
        return [0xFF, 0xD8] + segment
    }

    func testCoefficientArraysOfA5KProgressive420JPEG() throws {
        let frame = try XCTUnwrap(JPEGFrame(frameHeader(width: 5120, height: 2880, factors: [0x22, 0x11, 0x11])))
        XCTAssertTrue(frame.progressive)
        // Luma 640x360 blocks, each chroma 320x180, 128 bytes a block.
        XCTAssertEqual(frame.coefficientBytes, (640 * 360 + 2 * 320 * 180) * 128)
    }

    func testCoefficientArraysRoundUpToTheSamplingFactors() throws {
        // 4:2:0, 100x50: luma 13x7 blocks rounded up to 14x8 (libjpeg allocates whole MCUs),
        // chroma ceil(100/16) x ceil(50/16) = 7x4.
        let frame = try XCTUnwrap(JPEGFrame(frameHeader(width: 100, height: 50, factors: [0x22, 0x11, 0x11])))
        XCTAssertEqual(frame.coefficientBytes, (14 * 8 + 2 * 7 * 4) * 128)
        let grey = try XCTUnwrap(JPEGFrame(frameHeader(width: 100, height: 50, factors: [0x11])))
        XCTAssertEqual(grey.coefficientBytes, 13 * 7 * 128)
    }

    func testPeakTargets() {
        let card = CardSpec(width: 1536, height: 864)
        var facts = PhotoFacts(format: "JPEG", width: 5120, height: 2880, upright: (5120, 2880), progressive: false)
        XCTAssertEqual(PhotoBench.peakTarget(facts, card: card), card.byteCount + 8 * 1_048_576)
        facts.progressive = true
        facts.coefficientBytes = 40 * 1_048_576
        XCTAssertEqual(PhotoBench.peakTarget(facts, card: card), 44 * 1_048_576)
        var paging = PhotoBench.Paging(files: 1, emptyBytes: 0, coldBytes: 0, warmBytes: 0, cacheBytesOnDisk: 0,
                                       coldSeconds: 0, warmSeconds: 0)
        XCTAssertEqual(paging.coldTargetBytes, 64 * 1_048_576, "no progressive JPEG: 64 MB")
        paging.largestCoefficientBytes = 44 * 1_048_576
        XCTAssertEqual(paging.coldTargetBytes, 84 * 1_048_576, "64 MB + (44 - 24) MB")
    }

    func testResidentGroups() {
        let smaps = """
            55d0a0000000-55d0a0100000 r-xp 00000000 08:01 123 /usr/bin/carouseld
            Rss:                 400 kB
            7f0000000000-7f0000100000 r-xp 00000000 08:01 124 /usr/lib/swift/linux/libswiftCore.so
            Rss:                2000 kB
            7f0000200000-7f0000300000 r-xp 00000000 08:01 125 /usr/lib/x86_64-linux-gnu/libpixman-1.so.0
            Rss:                 300 kB
            7f0000400000-7f0000c00000 rw-p 00000000 00:00 0
            Rss:                8100 kB
            55d0a1000000-55d0a2000000 rw-p 00000000 00:00 0 [heap]
            Rss:                1000 kB
            """
        let groups = Dictionary(uniqueKeysWithValues: ResidentMap.groups(smaps: smaps).map { ($0.0, $0.1) })
        XCTAssertEqual(groups["anonymous (frames, cards, large malloc blocks)"], 8100 * 1024)
        XCTAssertEqual(groups["Swift runtime and Foundation"], 2000 * 1024)
        XCTAssertEqual(groups["malloc heap"], 1000 * 1024)
        XCTAssertEqual(groups["carouseld's code and data"], 400 * 1024)
        XCTAssertEqual(groups["other libraries (pixman, codecs, ICU...)"], 300 * 1024)
        XCTAssertEqual(PhotoBench.residentGroups("resident 1024 malloc heap\nresident 2048 stacks\npeak-rss-bytes 9").map(\.1), [1024, 2048])
    }
}
