import CImaging
import CarouselCore
import Glibc

/// Reading and writing one cache entry. A card read back is the entry's file mapped (its
/// pixels are the page cache's: nothing cleared, nothing copied, which at 1920x1080 was most of
/// a page change's CPU on the plane path); a card stored is one `write` from `Card.padded`.
extension CardCache {
    /// The card of a valid entry, or nil: missing (a plain miss), or corrupt, truncated or
    /// stale (logged and removed, so the caller decodes and stores it again).
    package func load(_ name: String, key: CardCacheKey, spec: CardSpec, source: String) -> Card? {
        let file = "\(directory)/\(name)"
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        switch read(fd, key: key, spec: spec) {
        case .success(let (card, readAs)):
            // Marks the entry recently used: pruning removes the least recently used first.
            futimens(fd, nil)
            // That changed its times: the file is remembered as it is now, in place of as read.
            var info = stat()
            let stamped = fstat(fd, &info) == 0 ? CheckedFile(info) : nil
            state.withLock { state in
                state.checkedFiles.remove(readAs)
                guard let stamped else { return }
                // Entries pruned or replaced leave theirs behind: bounded, and checked again.
                if state.checkedFiles.count >= CheckedFile.remembered { state.checkedFiles.removeAll() }
                state.checkedFiles.insert(stamped)
            }
            return card
        case .failure(let problem):
            Log.warning("card cache: \(file): \(problem.reason); decoding \(source) again")
            unlink(file)
            return nil
        }
    }

    package struct Problem: Error { var reason: String }

    /// The entry's card, and its file as it was read (`CheckedFile`).
    private func read(_ fd: Int32, key: CardCacheKey, spec: CardSpec) -> Result<(Card, CheckedFile), Problem> {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(Problem(reason: describe(errno: errno))) }
        var words = [UInt64](repeating: 0, count: CardCacheHeader.wordCount)
        let got = words.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard got == CardCacheHeader.byteCount else { return .failure(Problem(reason: "truncated header")) }
        guard let header = CardCacheHeader(words: words) else {
            return .failure(Problem(reason: "bad magic, version or header checksum"))
        }
        guard header.key == key else { return .failure(Problem(reason: "made from another version of the file")) }
        let size = (width: spec.width + 2, height: spec.height + 2)
        guard let payload = PixelImage.byteCount(width: size.width, height: size.height, format: PIXMAN_a8r8g8b8) else {
            return .failure(Problem(reason: "no \(spec.width)x\(spec.height) card"))
        }
        guard header.payloadBytes == UInt64(payload) else { return .failure(Problem(reason: "wrong pixel count")) }
        guard Int(info.st_size) == CardCacheHeader.byteCount + payload else {
            return .failure(Problem(reason: "\(info.st_size) bytes, expected \(CardCacheHeader.byteCount + payload) (truncated?)"))
        }
        guard let mapping = FileMapping(fd: fd, byteCount: CardCacheHeader.byteCount + payload) else {
            return .failure(Problem(reason: describe(errno: errno)))
        }
        let pixels = mapping.base + CardCacheHeader.byteCount
        // A page change reads back the card it brings: its pixels were checked at the entry's
        // first read, and the file is the same: a second checksum would cost a page change a
        // whole pass over the card's pixels.
        let file = CheckedFile(info)
        let checkedBefore = state.withLock { state in
            guard !state.checkedFiles.contains(file) else { return true }
            state.pixelChecks += 1
            return false
        }
        if !checkedBefore {
            guard FNV.hash(UnsafeRawBufferPointer(start: pixels, count: payload)) == header.payloadChecksum else {
                return .failure(Problem(reason: "pixel checksum mismatch"))
            }
        }
        guard let padded = PixelImage(width: size.width, height: size.height, format: PIXMAN_a8r8g8b8, base: pixels, owner: mapping),
              let card = Card(padded: padded) else {
            return .failure(Problem(reason: "no \(spec.width)x\(spec.height) card"))
        }
        return .success((card, file))
    }

    /// Writes the entry to a temp file in the same directory and renames it into place. A
    /// failure (disk full, directory gone read-only) is one warning and switches the cache off.
    @discardableResult
    package func store(_ card: Card, key: CardCacheKey, name: String) -> Bool {
        let file = "\(directory)/\(name)"
        let pixels = UnsafeRawBufferPointer(start: card.padded.base, count: card.padded.byteCount)
        let header = CardCacheHeader(key: key, payloadBytes: pixels.count, payloadChecksum: FNV.hash(pixels))
        // Replaced whole, not synced: the header's checksums find a torn or empty entry after a
        // cut (it is then decoded again), and a sync per card would wear an SD card.
        let written = WholeFile.write(file) { fd in
            header.words.withUnsafeBytes { WholeFile.writeAll(fd, $0) } && WholeFile.writeAll(fd, pixels)
        }
        var problem: String?
        if case .failure(let failure) = written { problem = describe(errno: failure.errno) }
        guard let problem else { return true }
        let first = state.withLock { state in
            defer { state.broken = true }
            return !state.broken
        }
        if first { Log.warning("card cache: cannot write \(file): \(problem); the card cache is off") }
        return false
    }
}

/// An entry's file as it was when its pixels were checked: any write to it since (or another
/// file in its place) changes its change time, modification time or inode. (Times are coarse,
/// a few ms: a write in the same tick as the check's own time stamp would go unseen, but only
/// the daemon writes this directory, whole files renamed into place.)
struct CheckedFile: Hashable {
    static let remembered = 4096
    let device: UInt64, inode: UInt64, size: Int64
    let modified: [Int], changed: [Int]

    init(_ info: stat) {
        device = UInt64(info.st_dev); inode = UInt64(info.st_ino); size = Int64(info.st_size)
        modified = [info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
        changed = [info.st_ctim.tv_sec, info.st_ctim.tv_nsec]
    }
}

