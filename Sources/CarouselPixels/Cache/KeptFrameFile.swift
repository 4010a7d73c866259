import CarouselCore
import Glibc

/// A whole frame kept on disk (XRGB8888, rows packed), with the 64-bit hash of the key it was
/// made for: the carousel's start frame for one screen, shown at the next start before anything
/// is decoded. The layout: 6 words (magic, version, width, height, key, pixel checksum), then
/// the pixels. Written to a temp file and renamed, so a reader sees a whole file or none; read
/// back mapped, and checked (magic, key, size, checksum) so a stale or damaged one is never shown.
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
        guard fstat(fd, &info) == 0, Int(info.st_size) == headerBytes + payload,
              let mapping = FileMapping(fd: fd, byteCount: headerBytes + payload) else { return nil }
        let header = (0..<6).map { mapping.base.load(fromByteOffset: $0 * 8, as: UInt64.self) }
        guard header[0] == magic, header[1] == version, header[2] == UInt64(width), header[3] == UInt64(height),
              header[4] == key else { return nil }
        let pixels = UnsafeRawBufferPointer(start: mapping.base + headerBytes, count: payload)
        guard FNV.hash(pixels) == header[5] else {
            Log.warning("kept frame \(path): pixel checksum mismatch; not shown")
            unlink(path)
            return nil
        }
        return Frame(pixels: pixels, width: width, height: height, mapping: mapping)
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
        let temp = "\(path).\(getpid()).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        let written = header.withUnsafeBytes { writeFully(fd, $0) } && writeFully(fd, pixels)
        let closed = close(fd) == 0
        guard written, closed, rename(temp, path) == 0 else { unlink(temp); return false }
        return true
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
