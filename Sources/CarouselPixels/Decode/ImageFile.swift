import CarouselCore
import Glibc

/// Reads picture files, turning every failure into a named `ImageError`.
/// Files are read by pread (not mapped from the file) so one truncated by someone else
/// mid-decode cannot SIGBUS us. A file is opened once; its header is read and checked before the rest, and a file
/// larger than `maxFileBytes` is refused before any of its bytes beyond the header are read.
package enum ImageFile {
    /// The largest picture file read whole: 256 MB. A 100-megapixel JPEG at top quality is
    /// about 60 MB; anything far beyond is not a photo for a carousel (and would not fit the
    /// memory of a small box).
    package static let maxFileBytes = 256 << 20

    /// The whole file, or its first `limit` bytes.
    package static func read(_ path: String, limit: Int = .max) throws(ImageError) -> FileBytes {
        let file = try Opened(path)
        return try file.read(limit: limit)
    }

    /// An open picture file: its size, read from the start as often as needed. The row decoders
    /// read it themselves through `descriptor` (pread, a chunk at a time) rather than from a
    /// copy of the whole file: a 20 MB photo costs 64 KB of buffer, not 20 MB.
    package final class Opened: @unchecked Sendable {
        package let path: String
        /// Fixed at open: decoders read no further, so a file that grows later is not read past
        /// the size that was checked, and one that shrinks ends early (truncated), never a fault.
        package let size: Int
        /// Open until this object goes away; pread only, so it is never seeked and can be
        /// shared by the header check and a decoder.
        package let descriptor: Int32

        package init(_ path: String) throws(ImageError) {
            // Non-blocking: a FIFO under a picture's name cannot hang the worker.
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else {
                let code = errno
                if code == ENOENT || code == ENOTDIR { throw .missing }
                throw .unreadable(Errno(rawValue: code).description)
            }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                let code = errno
                close(fd)
                throw .unreadable(Errno(rawValue: code).description)
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else { close(fd); throw .unreadable("not a regular file") }
            guard info.st_size > 0 else { close(fd); throw .empty }
            self.path = path; self.size = Int(info.st_size); self.descriptor = fd
        }

        deinit { close(descriptor) }

        /// Refuses a file larger than `ImageFile.maxFileBytes` (before it is read whole).
        package func checkSize(limit: Int = ImageFile.maxFileBytes) throws(ImageError) {
            if size > limit { throw .fileTooLarge(bytes: size, limit: limit) }
        }

        /// The first `limit` bytes (all of them by default), from offset 0.
        package func read(limit: Int = .max) throws(ImageError) -> FileBytes {
            let size = min(self.size, limit)
            guard let memory = AnonymousMapping(byteCount: size) else { throw .unreadable("out of memory for its \(size) bytes") }
            // Short when the file shrank while we read: decode what is there, the decoder names it.
            let count = try read(into: UnsafeMutableRawBufferPointer(start: memory.base, count: size), at: 0)
            if count == 0 { throw .empty }
            return FileBytes(memory: memory, count: count)
        }

        /// Whether the file (as far as `size`) ends with these bytes: a JPEG's end-of-image
        /// marker tells a truncated file from a corrupt one.
        package func ends(with suffix: [UInt8]) -> Bool {
            guard size >= suffix.count else { return false }
            var tail = [UInt8](repeating: 0, count: suffix.count)
            let count = tail.withUnsafeMutableBytes { try? read(into: $0, at: size - suffix.count) }
            return count == suffix.count && tail == suffix
        }

        /// Fills `buffer` from `offset` on, stopping early only at the end of the file.
        private func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(ImageError) -> Int {
            guard let base = buffer.baseAddress else { return 0 }
            var count = 0
            while count < buffer.count {
                let got = pread(descriptor, base + count, buffer.count - count, off_t(offset + count))
                if got < 0 {
                    if errno == EINTR { continue }
                    throw .unreadable(Errno(rawValue: errno).description)
                }
                if got == 0 { break }
                count += got
            }
            return count
        }
    }

    /// The lower-case extension of a path ("JPG" -> "jpg"), for messages only.
    package static func fileExtension(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}

/// A file's bytes in an `AnonymousMapping`, so a multi-megabyte photo goes back to the kernel
/// as soon as its decode is done instead of staying in malloc's heap.
package final class FileBytes: @unchecked Sendable {
    private let memory: AnonymousMapping
    package let count: Int

    fileprivate init(memory: AnonymousMapping, count: Int) {
        self.memory = memory; self.count = count
    }

    /// The bytes, valid while `body` runs.
    package func withUnsafeBytes<T, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        defer { withExtendedLifetime(self) {} }
        return try body(UnsafeRawBufferPointer(start: memory.base, count: count))
    }
}
