import CarouselCore
import Glibc

/// A whole frame kept on disk (XRGB8888, rows packed), with the 64-bit hash of the key it was
/// made for: the carousel's start frame for one screen, shown at the next start before anything
/// is decoded. The layout: 6 words (magic, version, width, height, key, pixel checksum), then
/// the pixels. Written whole (`WholeFile`), so a reader sees a whole file or none; read back
/// mapped, and checked (magic, key, size, checksum) so a stale or damaged one is never shown.
package enum KeptFrameFile {
    private static let magic: UInt64 = 0x5452_5045_4B4C_5243   // "CRLKEPRT"
    private static let version: UInt64 = 1
    private static let headerBytes = 6 * 8

    /// A frame read back: its pixels stay mapped as long as this lives.
    package struct Frame {
        package let pixels: UnsafeRawBufferPointer
        package let width: Int
        package let height: Int
        let mapping: FileMapping
    }

    /// The frame at `path` made for `key` at `width`x`height`; nil when there is none, or it was
    /// made for something else (another config, other pictures, another screen), or is damaged.
    package static func read(_ path: String, key: UInt64, width: Int, height: Int) -> Frame? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let payload = width * height * 4
        var info = stat()
        var header = [UInt64](repeating: 0, count: 6)
        guard fstat(fd, &info) == 0 else { return nil }
        let headerRead = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, headerBytes, 0) }
        // What a power cut can leave (empty, cut short, a header over zeros): dropped and said.
        guard headerRead == headerBytes, header[0] == magic else { return dropped(path, "cut short or not a kept frame (\(info.st_size) bytes)") }
        // Made for another config, pictures, screen or build: not shown, replaced once the carousel rests.
        guard header[1] == version, header[2] == UInt64(width), header[3] == UInt64(height), header[4] == key else { return nil }
        guard Int(info.st_size) == headerBytes + payload else {
            return dropped(path, "cut short (\(info.st_size) bytes of \(headerBytes + payload))")
        }
        guard let mapping = FileMapping(fd: fd, byteCount: headerBytes + payload) else { return nil }
        let pixels = UnsafeRawBufferPointer(start: mapping.base + headerBytes, count: payload)
        guard FNV.hash(pixels) == header[5] else { return dropped(path, "pixel checksum mismatch") }
        return Frame(pixels: pixels, width: width, height: height, mapping: mapping)
    }

    private static func dropped(_ path: String, _ why: String) -> Frame? {
        Log.warning("kept frame \(path): \(why); removed, not shown")
        unlink(path)
        return nil
    }

    /// Writes `frame` for `key` to `path` (its directory made if missing): the header, then the
    /// frame's own memory when its rows are packed (the daemon's are), with no copy; false on failure.
    @discardableResult
    package static func write(_ frame: PixelBuffer, key: UInt64, to path: String) -> Bool {
        guard frame.stride == frame.width * 4 else {
            guard let packed = AnonymousMapping(byteCount: frame.width * frame.height * 4) else { return false }
            let copy = PixelBuffer(base: packed.base, width: frame.width, height: frame.height, stride: frame.width * 4)
            for y in 0..<frame.height {
                (copy.base + y * copy.stride).copyMemory(from: frame.base + y * frame.stride, byteCount: copy.stride)
            }
            return withExtendedLifetime(packed) { write(copy, key: key, to: path) }
        }
        let pixels = UnsafeRawBufferPointer(start: frame.base, count: frame.stride * frame.height)
        let header = [magic, version, UInt64(frame.width), UInt64(frame.height), key, FNV.hash(pixels)]
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty { mkdir(directory, 0o700) }
        // Replaced whole, not synced: the header's checksum finds a torn or empty frame after a cut.
        let written = WholeFile.write(path) { fd in
            header.withUnsafeBytes { WholeFile.writeAll(fd, $0) } && WholeFile.writeAll(fd, pixels)
        }
        return (try? written.get()) != nil
    }

    /// Copies `frame` into `target` (same size), row by row (the target's stride may differ).
    package static func copy(_ frame: Frame, into target: PixelBuffer) {
        let rowBytes = frame.width * 4
        for y in 0..<min(frame.height, target.height) {
            (target.base + y * target.stride).copyMemory(from: frame.pixels.baseAddress! + y * rowBytes,
                                                         byteCount: min(rowBytes, target.width * 4))
        }
    }
}
