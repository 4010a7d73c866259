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

    /// An open picture file: its size, read from the start as often as needed.
    final class Opened {
        let path: String
        private let file: RegularFile
        var size: Int { file.size }

        init(_ path: String) throws(ImageError) {
            do {
                file = try RegularFile(path)
            } catch {
                switch error {
                case .missing: throw .missing
                case .notRegularFile: throw .unreadable("not a regular file")
                case .system(let errno): throw .unreadable(errno.description)
                }
            }
            guard file.size > 0 else { throw .empty }
            self.path = path
        }

        /// Refuses a file larger than `ImageFile.maxFileBytes` (before it is read whole).
        func checkSize(limit: Int = ImageFile.maxFileBytes) throws(ImageError) {
            if size > limit { throw .fileTooLarge(bytes: size, limit: limit) }
        }

        /// The first `limit` bytes (all of them by default), from offset 0.
        func read(limit: Int = .max) throws(ImageError) -> FileBytes {
            let size = min(self.size, limit)
            guard let memory = AnonymousMapping(byteCount: size) else { throw .unreadable("out of memory for its \(size) bytes") }
            let count: Int
            do {
                // Short when the file shrank while we read: decode what is there, the decoder names it.
                count = try file.read(into: UnsafeMutableRawBufferPointer(start: memory.base, count: size), at: 0)
            } catch {
                throw .unreadable(error.description)
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
