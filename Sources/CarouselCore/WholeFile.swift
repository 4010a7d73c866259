import Glibc

/// The one way the daemon writes a file: into a temporary file beside it, then renamed over it,
/// so a reader, or the next boot after a power cut, finds the old file or the new one and never
/// a half (DESIGN.md §14). What a cut can still leave, and why each file can take it:
///
/// | file | durability | after a cut |
/// |---|---|---|
/// | card cache entries, kept frames | `.replaced` | a checksum in the header is verified on read: a zero-length or torn entry (ext4's delayed allocation can leave a renamed file empty) is dropped with one log line and made again |
/// | `state.json` | `.replaced` | on /run (tmpfs): nothing survives the boot |
/// | `metrics_file` | `.replaced` | rewritten within a second of the next start; the series of a stale one are the alert rules' business |
/// | the last good config (`LastGoodConfig`) | `.durable` | what the box shows when a cut left carouseld.conf half-written: it must be on the disk before the operator's next copy can be cut |
///
/// `.durable` adds `fsync` of the file before the rename and of the directory after it: the
/// write is on the disk when `write` returns. Only a file whose loss would change what the box
/// shows needs that; a sync per card would wear an SD card for nothing a checksum cannot catch.
package enum WholeFile {
    package enum Durability: Sendable { case replaced, durable }

    package struct Failure: Error, CustomStringConvertible, Equatable {
        /// The step that failed: "open", "write", "fsync", "rename".
        package let step: String
        package let errno: Int32
        package var description: String { "\(step): \(describe(errno: errno))" }
    }

    /// Writes the file at `path` whole: `body` gets the temporary file's descriptor and writes
    /// the contents (false, with errno set, on failure). The temporary name is unique to this
    /// process and call, hidden (dot first) and ends in `.tmp`, so a cut leaves only names that
    /// `isLeftover` recognises.
    package static func write(_ path: String, mode: mode_t = 0o600, durability: Durability = .replaced,
                              _ body: (Int32) -> Bool) -> Result<Void, Failure> {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = "\(directory.isEmpty ? "" : directory)/.\(name).\(getpid()).\(sequence.withLock { $0 += 1; return $0 }).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { return .failure(Failure(step: "open", errno: errno)) }
        // The mode as asked, whatever the umask (the unit's UMask=0077 would take group reads).
        _ = fchmod(fd, mode)
        var failure: Failure?
        if !body(fd) { failure = Failure(step: "write", errno: errno) }
        if failure == nil, durability == .durable, fsync(fd) != 0 { failure = Failure(step: "fsync", errno: errno) }
        if close(fd) != 0, failure == nil { failure = Failure(step: "write", errno: errno) }
        if failure == nil, rename(temporary, path) != 0 { failure = Failure(step: "rename", errno: errno) }
        if let failure {
            unlink(temporary)
            return .failure(failure)
        }
        if durability == .durable { syncDirectory(directory.isEmpty ? "/" : directory) }
        return .success(())
    }

    /// Writes `bytes` whole (see above).
    package static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600,
                              durability: Durability = .replaced) -> Result<Void, Failure> {
        write(path, mode: mode, durability: durability) { fd in
            bytes.withUnsafeBytes { writeAll(fd, $0) }
        }
    }

    /// A temporary file a cut left behind (`.NAME.PID.N.tmp`): never read, removed by whoever
    /// owns the directory.
    package static func isLeftover(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp")
    }

    /// Writes all of `bytes` to `fd` (a short write goes on, EINTR is retried); false with errno
    /// set on failure (ENOSPC for a write that made no progress).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count, let base = bytes.baseAddress {
            let n = Glibc.write(fd, base + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { if n == 0 { errno = ENOSPC }; return false }
            done += n
        }
        return true
    }

    /// The rename is on the disk once the directory is: fsync of the directory itself.
    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// Temporary names from several threads (the cache writes from its helper threads).
    private static let sequence = Locked(0)
}
