import CarouselCore
import Glibc

/// Where the decode worker gets a card: from a cache when it holds a valid one, else from
/// `make` (the decode). A protocol so the worker can be tested with a stand-in.
package protocol CardCaching: AnyObject, Sendable {
    func card(path: String, spec: CardSpec, make: () throws(ImageError) -> Card) throws(ImageError) -> Card
    /// `paths` are in a playlist shown by `owner` until `release(owner)`; entries of files in
    /// no such playlist are pruned.
    func use(_ paths: [String], by owner: ObjectIdentifier)
    func release(_ owner: ObjectIdentifier)
    /// Removes entries of files in no playlist in use, stale versions, and the oldest beyond the bound.
    func prune()
    /// Writes the oldest card decoded on a miss and not yet written; false when none waits.
    /// The decode worker calls it when it has nothing to decode.
    func writeNext() -> Bool
    /// Cards decoded on a miss wait to be written (or one is being written).
    var hasPendingWrites: Bool { get }
    /// `disk_cache_mb`, which a reload may change; 0 switches lookups and stores off.
    func setLimit(megabytes: Int)
}

/// Cards on disk, so a photo is decoded from its original once per card size and later shows
/// (and the first frame after a reboot) are one read. One file per card in one directory:
/// `<path hash>-<spec hash>-<key hash>.card`, a `CardCacheHeader` then the card's padded
/// pixels. Written to a temp file and renamed, so a reader sees a whole entry or none; checked
/// on every read (magic, key, sizes, header checksum; the pixels' checksum on an entry's first
/// read in a run, and again once its file changed) so a corrupt or stale one is logged, removed
/// and decoded again, never shown. Shared by every store of the daemon (thread-safe).
/// A miss is written later (`writeNext`), when the worker is idle: on a box's first boot the
/// first picture waits for its decode, not for the checksum and the write of its card.
package final class CardCache: CardCaching, @unchecked Sendable {
    package let directory: String
    package struct State {
        package var limitBytes: Int
        package var playlists: [ObjectIdentifier: Set<String>] = [:]
        /// Set after a failed write: one warning, then the cache is off for this process.
        package var broken = false
        /// Cards decoded on a miss, oldest first, and how many are being written now.
        var pendingWrites: [PendingWrite] = []
        var writing = 0
        /// Entries whose pixels were checked in this run, as they were then (`CheckedFile`).
        var checkedFiles: Set<CheckedFile> = []
        /// How many entries' pixels were checked (tests).
        package var pixelChecks = 0
    }

    /// A card to write under `name`, made from the file `key` describes.
    struct PendingWrite {
        var card: Card
        var key: CardCacheKey
        var name: String
        var path: String
        var spec: CardSpec
    }

    /// Beyond this many cards waiting, a miss is written at once: a worker that is never idle
    /// (a long fling through a large playlist) holds no more cards than this for the disk.
    static let pendingWriteBound = 8
    package let state: Locked<State>

    /// At most this much whatever `disk_cache_mb` says: a cache in RAM (/run) must leave room.
    package let ceilingMegabytes: Int

    /// nil, with one warning, when `directory` cannot be created or written (a read-only root):
    /// the daemon then decodes every card as without a cache, and never fails for it.
    package init?(directory: String, megabytes: Int, ceilingMegabytes: Int = .max) {
        self.directory = directory
        self.ceilingMegabytes = ceilingMegabytes
        state = Locked(State(limitBytes: min(max(0, megabytes), ceilingMegabytes) * 1_048_576))
        if let reason = Self.writeProblem(directory) {
            Log.warning("card cache: \(directory): \(reason); the card cache is off (cards are decoded from the originals)")
            return nil
        }
    }

    package var isOn: Bool { state.withLock { $0.limitBytes > 0 && !$0.broken } }

    package func setLimit(megabytes: Int) {
        state.withLock { $0.limitBytes = min(max(0, megabytes), ceilingMegabytes) * 1_048_576 }
    }

    package func use(_ paths: [String], by owner: ObjectIdentifier) {
        let hashes = Set(paths.map { Self.hex(FNV.hash($0)) })
        state.withLock { $0.playlists[owner] = hashes }
    }

    package func release(_ owner: ObjectIdentifier) { _ = state.withLock { $0.playlists.removeValue(forKey: owner) } }

    package func card(path: String, spec: CardSpec, make: () throws(ImageError) -> Card) throws(ImageError) -> Card {
        guard isOn, let key = CardCacheKey(path: path, spec: spec) else { return try make() }
        let name = Self.entryName(path: path, key: key)
        if let card = load(name, key: key, spec: spec, source: path) { return card }
        let card = try make()
        let write = PendingWrite(card: card, key: key, name: name, path: path, spec: spec)
        let queued = state.withLock { state in
            guard state.pendingWrites.count < Self.pendingWriteBound else { return false }
            state.pendingWrites.append(write)
            return true
        }
        if !queued { self.write(write) }
        return card
    }

    package func writeNext() -> Bool {
        guard let next = state.withLock({ state -> PendingWrite? in
            guard !state.pendingWrites.isEmpty else { return nil }
            state.writing += 1
            return state.pendingWrites.removeFirst()
        }) else { return false }
        write(next)
        state.withLock { $0.writing -= 1 }
        return true
    }

    /// Writes every card waiting (a command that exits after its cards, tests).
    package func writePending() { while writeNext() {} }

    package var hasPendingWrites: Bool { state.withLock { !$0.pendingWrites.isEmpty || $0.writing > 0 } }

    private func write(_ pending: PendingWrite) {
        // A file replaced while it was decoded would be stored under its old key: store only
        // when the source is still the one the key describes.
        guard isOn, CardCacheKey(path: pending.path, spec: pending.spec) == pending.key,
              store(pending.card, key: pending.key, name: pending.name) else { return }
        prune()
    }

    // MARK: - Names

    package static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    package static let suffix = ".card"

    /// Path hash first (playlist pruning needs only the name), then the spec's (so two card
    /// sizes of one photo are two entries), then the whole key's.
    package static func entryName(path: String, key: CardCacheKey) -> String {
        let spec = FNV.hash([key.width, key.height, key.fit, key.background, key.maxImagePixels])
        return "\(hex(FNV.hash(path)))-\(hex(spec))-\(hex(FNV.hash(key.words)))\(suffix)"
    }

    /// Why nothing can be written into `directory`, or nil: created if missing, then a probe file.
    package static func writeProblem(_ directory: String) -> String? {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST { return describe(errno: errno) }
        let probe = "\(directory)/.probe.\(getpid()).tmp"
        let fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return describe(errno: errno) }
        close(fd)
        unlink(probe)
        return nil
    }
}
