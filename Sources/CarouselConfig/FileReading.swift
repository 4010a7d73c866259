import CarouselCore
import Glibc

/// Reads small text files (the config and the playlist) whole. Not `ImageFile.read`, because
/// for a config an empty file is valid, an oversized one is an error rather than cut short, and
/// the open must not block (a FIFO named carouseld.conf would otherwise hang the event loop).
package enum FileReading {
    package enum Failure: Error, Equatable {
        case missing
        case notRegularFile
        case tooLarge(Int)
        case system(String)
    }

    /// Reads `path` if it is a regular file of at most `limit` bytes. The limit keeps a
    /// mistaken symlink to something huge from exhausting memory.
    package static func read(_ path: String, limit: Int = 1 << 20) throws(Failure) -> [UInt8] {
        let (bytes, isCut) = try readHead(path, limit: limit)
        guard !isCut else { throw .tooLarge(max(bytes.count + 1, fileSize(path) ?? 0)) }
        return bytes
    }

    /// Reads at most the first `limit` bytes of `path` (a regular file); `isCut` when the file
    /// has more. Never holds more than `limit` + 1 bytes, whatever the file's size.
    package static func readHead(_ path: String, limit: Int) throws(Failure) -> (bytes: [UInt8], isCut: Bool) {
        let file: RegularFile
        do {
            file = try RegularFile(path)
        } catch {
            switch error {
            case .missing: throw .missing
            case .notRegularFile: throw .notRegularFile
            case .system(let errno): throw .system(errno.description)
            }
        }
        // One byte past the limit tells a cut file; more room if it grew since fstat.
        var bytes = [UInt8](repeating: 0, count: min(file.size, limit) + 1)
        var total = 0
        while true {
            do {
                total += try file.read(into: &bytes, from: total)
            } catch {
                throw .system(error.description)
            }
            // The file grew while being read: allow it up to the limit.
            guard total == bytes.count, total <= limit else { break }
            bytes.append(contentsOf: repeatElement(0, count: min(4096, limit + 1 - total)))
        }
        if total > limit { return (Array(bytes[..<limit]), true) }
        return (Array(bytes[..<total]), false)
    }

    private static func fileSize(_ path: String) -> Int? {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : nil
    }

    package static func message(_ failure: Failure) -> String {
        switch failure {
        case .missing: return "file not found"
        case .notRegularFile: return "not a regular file"
        case .tooLarge(let n): return "file is too large (\(n) bytes)"
        case .system(let s): return s
        }
    }
}
