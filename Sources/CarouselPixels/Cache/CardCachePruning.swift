import CarouselCore
import Glibc

/// Keeping the cache directory within `disk_cache_mb`. Only names the cache writes are touched
/// (`*.card` and its `.*.tmp` files), so a `--cache-dir` shared with other files is safe.
extension CardCache {
    package struct Entry {
        package var name: String
        package var bytes: Int
        /// Last written or read (a hit touches it).
        package var used: Int64
        /// "<path hash>-<spec hash>": one photo at one card size.
        package var group: Substring
        package var pathHash: Substring
    }

    package func prune() {
        state.withLock { state in
            let live: Set<String>? = state.playlists.isEmpty ? nil : state.playlists.values.reduce(into: Set()) { $0.formUnion($1) }
            var keep: [Entry] = []
            var newestOfGroup: [Substring: Int] = [:]
            for entry in entries() {
                // Files in no playlist shown (only known once a store has said what it shows).
                if let live, !live.contains(String(entry.pathHash)) { remove(entry.name); continue }
                // An older version of the same photo at the same size (the photo was edited).
                if let other = newestOfGroup[entry.group] {
                    if keep[other].used >= entry.used { remove(entry.name); continue }
                    remove(keep[other].name)
                    keep[other] = entry
                    continue
                }
                newestOfGroup[entry.group] = keep.count
                keep.append(entry)
            }
            // Most recently used first; whatever no longer fits the bound goes.
            var total = 0
            for entry in keep.sorted(by: { $0.used > $1.used }) {
                total += entry.bytes
                if total > state.limitBytes { remove(entry.name) }
            }
        }
    }

    private func remove(_ name: String) { unlink("\(directory)/\(name)") }

    /// The cache's entries; temp files left by a crash (older than a minute) are removed on the way.
    private func entries() -> [Entry] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var found: [Entry] = []
        let now = Int64(time(nil))
        while let raw = readdir(dir) {
            let name = withUnsafeBytes(of: raw.pointee.d_name) { string(fromCArray: $0) }
            var info = stat()
            guard fstatat(dirfd(dir), name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let used = Int64(info.st_mtim.tv_sec)
            if WholeFile.isLeftover(name) {
                if now - used > 60 { remove(name) }
                continue
            }
            guard name.hasSuffix(Self.suffix) else { continue }
            let parts = name.dropLast(Self.suffix.count).split(separator: "-")
            guard parts.count == 3 else { continue }
            let group = name[name.startIndex..<parts[1].endIndex]
            found.append(Entry(name: name, bytes: Int(info.st_size),
                               used: used * 1_000_000_000 + Int64(info.st_mtim.tv_nsec), group: group, pathHash: parts[0]))
        }
        return found
    }
}
