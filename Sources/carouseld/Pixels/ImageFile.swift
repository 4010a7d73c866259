import Glibc

/// Reads picture files, turning every failure into a named `ImageError`.
/// Files are read (not mapped from the file) so one truncated by someone else mid-decode cannot
/// SIGBUS us. A file is opened once; its header is read and checked before the rest, and a file
/// larger than `maxFileBytes` is refused before any of its bytes beyond the header are read.
enum ImageFile {
    /// The largest picture file read whole: 256 MB. A 100-megapixel JPEG at top quality is
    /// about 60 MB; anything far beyond is not a photo for a carousel (and would not fit the
    /// memory of a small box).
    static let maxFileBytes = 256 << 20

    /// The whole file, or its first `limit` bytes.
    static func read(_ path: String, limit: Int = .max) throws(ImageError) -> FileBytes {
        let file = try Opened(path)
        return try file.read(limit: limit)
    }

    /// An open picture file: its descriptor and size, read from the start as often as needed.
    final class Opened {
        let path: String
        let size: Int
        private let fd: Int32

        init(_ path: String) throws(ImageError) {
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            if fd < 0 {
                let err = errno
                throw err == ENOENT ? .missing : .unreadable(describe(errno: err))
            }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                let err = errno
                close(fd)
                throw .unreadable(describe(errno: err))
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else { close(fd); throw .unreadable("not a regular file") }
            guard info.st_size > 0 else { close(fd); throw .empty }
            self.path = path; self.fd = fd; self.size = Int(info.st_size)
        }

        deinit { close(fd) }

        /// Refuses a file larger than `ImageFile.maxFileBytes` (before it is read whole).
        func checkSize(limit: Int = ImageFile.maxFileBytes) throws(ImageError) {
            if size > limit { throw .fileTooLarge(bytes: size, limit: limit) }
        }

        /// The first `limit` bytes (all of them by default), from offset 0.
        func read(limit: Int = .max) throws(ImageError) -> FileBytes {
            let size = min(self.size, limit)
            guard let memory = AnonymousMapping(byteCount: size) else { throw .unreadable("out of memory for its \(size) bytes") }
            var count = 0
            while count < size {
                let got = pread(fd, memory.base + count, size - count, off_t(count))
                if got < 0 && errno == EINTR { continue }
                if got < 0 { throw .unreadable(describe(errno: errno)) }
                if got == 0 { break } // shrank while we read: decode what is there, the decoder names it
                count += got
            }
            if count == 0 { throw .empty }
            return FileBytes(memory: memory, count: count)
        }
    }

    /// The lower-case extension of a path ("JPG" -> "jpg"), for messages only.
    static func fileExtension(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}

/// A file's bytes in an `AnonymousMapping`, so a multi-megabyte photo goes back to the kernel
/// as soon as its decode is done instead of staying in malloc's heap.
final class FileBytes: @unchecked Sendable {
    private let memory: AnonymousMapping
    let count: Int

    fileprivate init(memory: AnonymousMapping, count: Int) {
        self.memory = memory; self.count = count
    }

    /// The bytes, valid while `body` runs.
    func withUnsafeBytes<T, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        defer { withExtendedLifetime(self) {} }
        return try body(UnsafeRawBufferPointer(start: memory.base, count: count))
    }
}
