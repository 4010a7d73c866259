import Glibc

/// Reads a whole picture file, turning every failure into a named `ImageError`.
/// Files are read (not mapped from the file) so one truncated by someone else mid-decode cannot
/// SIGBUS us.
enum ImageFile {
    /// The whole file, or its first `limit` bytes.
    static func read(_ path: String, limit: Int = .max) throws(ImageError) -> FileBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let err = errno
            throw err == ENOENT ? .missing : .unreadable(String(cString: strerror(err)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .unreadable("not a regular file") }
        guard info.st_size > 0 else { throw .empty }
        let size = min(Int(info.st_size), limit)
        guard let memory = AnonymousMapping(byteCount: size) else { throw .unreadable("out of memory for its \(size) bytes") }
        var count = 0
        while count < size {
            let got = Glibc.read(fd, memory.base + count, size - count)
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw .unreadable(String(cString: strerror(errno))) }
            if got == 0 { break } // shrank while we read: decode what is there, the decoder names it
            count += got
        }
        if count == 0 { throw .empty }
        return FileBytes(memory: memory, count: count)
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
