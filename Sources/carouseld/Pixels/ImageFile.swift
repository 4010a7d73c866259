import Glibc

/// Reads a whole picture file, turning every failure into a named `ImageError`.
/// Files are read (not mapped) so a file truncated by someone else mid-decode cannot SIGBUS us.
enum ImageFile {
    /// The whole file, or its first `limit` bytes.
    static func read(_ path: String, limit: Int = .max) throws(ImageError) -> [UInt8] {
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
        var failure: ImageError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let got = Glibc.read(fd, buffer.baseAddress! + count, size - count)
                if got < 0 && errno == EINTR { continue }
                if got < 0 { failure = .unreadable(String(cString: strerror(errno))); return }
                if got == 0 { break } // shrank while we read: decode what is there, the decoder names it
                count += got
            }
        }
        if let failure { throw failure }
        if bytes.isEmpty { throw .empty }
        return bytes
    }

    /// The lower-case extension of a path ("JPG" -> "jpg"), for messages only.
    static func fileExtension(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}
