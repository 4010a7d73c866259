import Glibc

/// Which version of a file this is: device, inode, size and modification time in ns. A file
/// written in place (cp, scp, dd) or replaced by a rename gets a new stamp.
package struct FileStamp: Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64
    package var size: UInt64
    package var mtimeNanoseconds: UInt64

    /// nil when the file cannot be stat'ed.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev); inode = UInt64(info.st_ino); size = UInt64(info.st_size)
        mtimeNanoseconds = UInt64(bitPattern: Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec))
    }
}

/// What a card shows: its file, as stamped before and after it was read, and the card look.
/// A store that decodes the same picture again (it scrolled out of the window and back) makes
/// a new card object with the same content.
package struct CardContent: Hashable, Sendable {
    package let path: String
    package let file: FileStamp
    package let spec: CardSpec

    package init(path: String, file: FileStamp, spec: CardSpec) {
        self.path = path; self.file = file; self.spec = spec
    }
}
