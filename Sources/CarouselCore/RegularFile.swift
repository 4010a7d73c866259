import Glibc

/// A regular file opened for reading, with its size. The open does not block (a FIFO under a
/// picture's or the config's name cannot hang the event loop) and anything but a regular file
/// is refused before a byte is read. Closed when the value goes away.
package struct RegularFile: ~Copyable {
    package enum OpenFailure: Error, Equatable {
        case missing
        case notRegularFile
        case system(Errno)
    }

    package let size: Int
    private let owned: OwnedDescriptor

    package init(_ path: String) throws(OpenFailure) {
        let owned: OwnedDescriptor
        do {
            owned = try OwnedDescriptor.open(path, O_RDONLY | O_NONBLOCK)
        } catch {
            throw error == .noSuchFileOrDirectory || error == .notDirectory ? .missing : .system(error)
        }
        var info = stat()
        guard fstat(owned.rawValue, &info) == 0 else { throw .system(Errno.current) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile }
        size = Int(info.st_size)
        self.owned = owned
    }

    /// Fills `buffer` from `offset` on, stopping early only at the end of the file (it may have
    /// shrunk meanwhile). Returns how many bytes came; EINTR is retried.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(Errno) -> Int {
        var count = 0
        while count < buffer.count {
            let got = try owned.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]), at: offset + count)
            if got == 0 { break }
            count += got
        }
        return count
    }

    /// `read(into:at:)` for the bytes of `array` from `start` on, at the same file offset.
    package func read(into array: inout [UInt8], from start: Int) throws(Errno) -> Int {
        let result = array.withUnsafeMutableBytes { buffer in
            Result { () throws(Errno) in try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]), at: start) }
        }
        return try result.get()
    }
}
