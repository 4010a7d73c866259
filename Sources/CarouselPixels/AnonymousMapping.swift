import Glibc

/// Memory straight from the kernel (a private anonymous mapping), given back on deinit.
///
/// Why not malloc for pictures and files: glibc raises its mmap threshold after the first large
/// free, after which freed megabyte-sized blocks stay in its heap, resident, and peak RSS grows
/// by whatever the heap keeps. A mapping is returned to the kernel by `munmap` the moment it is
/// freed, so peak memory stays what is really in use. Mappings are also page-aligned, which
/// pixman's SIMD paths like.
package final class AnonymousMapping: @unchecked Sendable {
    package let base: UnsafeMutableRawPointer
    package let byteCount: Int

    /// nil when `byteCount` is not positive or memory is exhausted (callers report it, never trap).
    package init?(byteCount: Int) {
        guard byteCount > 0,
              let memory = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              memory != MAP_FAILED else { return nil }
        base = memory
        self.byteCount = byteCount
    }

    deinit { munmap(base, byteCount) }
}

/// A file's bytes mapped private (copy-on-write): the pages are the page cache's, mapped for
/// reading all at once (`MADV_POPULATE_READ`: every reader checksums the whole file straight
/// away, and one call maps its pages where a fault per 4 KB page would; under emulation a fault
/// is dear), and nothing is copied or cleared. For card cache entries and kept frames, which the
/// daemon only ever replaces by renaming a new file over them (the mapped file is never
/// truncated under the mapping).
package final class FileMapping: @unchecked Sendable {
    package let base: UnsafeMutableRawPointer
    package let byteCount: Int

    /// The first `byteCount` bytes of `fd`; nil when it cannot be mapped.
    package init?(fd: Int32, byteCount: Int) {
        guard byteCount > 0,
              let memory = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0),
              memory != MAP_FAILED else { return nil }
        // Not MAP_POPULATE: on a private writable mapping it would copy every page. A kernel
        // older than 5.14 refuses the advice, and the pages are faulted in as before.
        _ = madvise(memory, byteCount, MADV_POPULATE_READ)
        base = memory
        self.byteCount = byteCount
    }

    deinit { munmap(base, byteCount) }
}
