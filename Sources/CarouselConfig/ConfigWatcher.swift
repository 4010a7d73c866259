import CarouselCore
import CLinux
import Glibc

/// Watches the config directory and the media directory with inotify and says when to reload,
/// after a quiet period (debounce), so a burst of writes gives one reload.
///
/// The daemon's event loop polls `fd`, calls `handleReadable(now:)` when it is readable, and
/// calls `fire(now:)` once `nextDeadline` has passed; `true` means "reload now".
///
/// It copes with:
/// - editors writing a temp file and renaming it over the original (IN_MOVED_TO on the name);
/// - rsync's and editors' hidden temporary names (`.name.XXXXXX`, `name~`): ignored until renamed;
/// - a watched directory deleted, renamed or created again: its parent (or the nearest existing
///   ancestor) is watched too, and the watches are re-added when the name comes back;
/// - inotify queue overflow (IN_Q_OVERFLOW): a full reload, and the watches are re-added;
/// - a picture written in place (cp, scp, dd write the final name first and the bytes over
///   seconds): while a media file is open for writing (modified, not yet closed) the reload
///   waits for IN_CLOSE_WRITE, or for `writeQuiet` seconds without a change, at most
///   `maxWriteHold` after the first event. A picture read half-written anyway (a writer that
///   closes between chunks) fails to decode and is tried again when its file changes.
///
/// Subdirectories of the media directory are not watched (a playlist naming `sub/x.jpg`
/// picks up changes there on the next reload or SIGHUP).
package final class ConfigWatcher {
    private let inotify: OwnedDescriptor
    /// Readable when events are queued.
    package var fd: Int32 { inotify.rawValue }
    package private(set) var configDirectory: String
    package private(set) var mediaDirectory: String
    /// Quiet time after the last event before reloading.
    package let debounce: Double
    /// Longest delay after the first event, so endless churn still reloads now and then.
    package let maxDelay: Double
    /// When the loop must call `fire(now:)`; nil when nothing is pending.
    package private(set) var nextDeadline: Double?
    /// IN_Q_OVERFLOW events seen (each forces a full reload).
    package private(set) var overflowCount = 0
    /// Media files open for writing, by name, and the time of their last change.
    package private(set) var beingWritten: [String: Double] = [:]
    /// A file open for writing that has not changed for this long counts as written.
    package static let writeQuiet = 3.0
    /// However long files keep being written, the reload comes this long after the first event.
    package static let maxWriteHold = 30.0

    private enum Role: Hashable {
        case config
        case media
        /// A directory watched for `child` to appear, leading to a watched directory.
        case ancestor(child: String)
    }
    private var roles: [Int32: Set<Role>] = [:]
    private var firstPendingEvent: Double?
    /// Room for many events per read(2); kept, so a wakeup allocates nothing.
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    private static let mask: UInt32 = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE
        | IN_ATTRIB | IN_MODIFY | IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_ONLYDIR)

    package init(configDirectory: String, mediaDirectory: String, debounce: Double = 0.2, maxDelay: Double = 2) throws {
        inotify = try OwnedDescriptor("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC)) }
        self.configDirectory = configDirectory
        self.mediaDirectory = mediaDirectory
        self.debounce = debounce
        self.maxDelay = maxDelay
        refreshWatches()
    }

    package convenience init(watching loaded: LoadedConfig) throws {
        try self.init(configDirectory: loaded.directory, mediaDirectory: loaded.mediaDirectory)
    }

    /// The config now names another image directory: watch that one instead.
    package func setMediaDirectory(_ path: String) {
        guard path != mediaDirectory else { return }
        mediaDirectory = path
        refreshWatches()
    }

    /// Reads every queued event; schedules a reload if one of them matters.
    package func handleReadable(now: Double) {
        var relevant = false
        var rewatch = false
        while true {
            // Nothing left (EAGAIN) ends the loop like an error would: EINTR is retried.
            let read = buffer.withUnsafeMutableBytes { try? inotify.read(into: $0) }
            guard let count = read, count > 0 else { break }
            let events = buffer
            Self.forEachEvent(in: events, count: count) { wd, mask, name in
                let (matters, affectsWatches) = classify(wd: wd, mask: mask, name: name, now: now)
                relevant = relevant || matters
                rewatch = rewatch || affectsWatches
            }
        }
        if rewatch { refreshWatches() }
        if relevant { schedule(now: now) }
    }

    /// True once when the debounce has elapsed: the caller reloads.
    package func fire(now: Double) -> Bool {
        guard let deadline = nextDeadline, now >= deadline else { return false }
        if let hold = writeHold(now: now) {
            nextDeadline = hold
            return false
        }
        nextDeadline = nil
        beingWritten = [:]
        firstPendingEvent = nil
        return true
    }

    // MARK: - Events

    private func schedule(now: Double) {
        let first = firstPendingEvent ?? now
        firstPendingEvent = first
        nextDeadline = min(now + debounce, first + maxDelay)
    }

    /// Until when a file being written holds the reload back; nil when none does.
    private func writeHold(now: Double) -> Double? {
        beingWritten = beingWritten.filter { now - $0.value < Self.writeQuiet }
        guard let last = beingWritten.values.max() else { return nil }
        let limit = (firstPendingEvent ?? now) + Self.maxWriteHold
        return now < limit ? min(last + Self.writeQuiet, limit) : nil
    }

    /// Follows which media files are open for writing: written until closed, deleted or renamed.
    private func trackWrites(mask: UInt32, name: String, now: Double) {
        if mask & UInt32(IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO) != 0 {
            beingWritten[name] = nil
        } else if mask & UInt32(IN_CREATE | IN_MODIFY) != 0 {
            beingWritten[name] = now
        }
    }

    /// (does it change what a reload would load, must the watches be re-added)
    private func classify(wd: Int32, mask: UInt32, name: String, now: Double) -> (Bool, Bool) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            overflowCount += 1
            // Closes may be among the events lost: no file counts as still being written.
            beingWritten = [:]
            Log.warning("inotify queue overflowed: rescanning \(configDirectory)")
            return (true, true)
        }
        // Events of watches already dropped (including the IN_IGNORED our own rm_watch causes).
        guard let roles = roles[wd] else { return (false, false) }
        // The watched directory itself went away (or its watch did): find it again.
        if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) != 0 { return (true, true) }
        var matters = false, rewatch = false
        for role in roles {
            switch role {
            case .config:
                // Any playlist: an [[output]] may name its own (lobby.m3u).
                if name == ConfigLoader.configFileName || (name.hasSuffix(".m3u") && !Self.isTemporary(name)) {
                    matters = true
                }
            case .media:
                if !Self.isTemporary(name) {
                    matters = true
                    trackWrites(mask: mask, name: name, now: now)
                }
            case .ancestor(let child):
                if name == child { matters = true; rewatch = true }
            }
        }
        return (matters, rewatch)
    }

    /// Hidden names (rsync's `.name.XXXXXX`, editors' `.swp`, `.goutputstream-*`) and backups
    /// (`name~`) never count: the rename to the real name that follows does.
    package static func isTemporary(_ name: String) -> Bool { name.hasPrefix(".") || name.hasSuffix("~") || name.isEmpty }

    private static func forEachEvent(in buffer: [UInt8], count: Int, _ body: (Int32, UInt32, String) -> Void) {
        let header = MemoryLayout<inotify_event>.size
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset + header <= count {
                let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = raw[(offset + header)..<min(count, offset + header + length)]
                let name = String(decoding: nameBytes.prefix(while: { $0 != 0 }), as: UTF8.self)
                body(wd, mask, name)
                offset += header + length
            }
        }
    }

    // MARK: - Watches

    /// (Re)adds watches on both directories and their parents, and drops watches no longer
    /// needed. Adding a watch on an inode already watched returns the same descriptor, so this
    /// is cheap and idempotent; a directory replaced by a new one gets a new descriptor.
    private func refreshWatches() {
        var wanted: [Int32: Set<Role>] = [:]
        watch(configDirectory, as: .config, into: &wanted)
        watch(mediaDirectory, as: .media, into: &wanted)
        for wd in roles.keys where wanted[wd] == nil { inotify_rm_watch(fd, wd) }
        roles = wanted
    }

    private func watch(_ path: String, as role: Role, into wanted: inout [Int32: Set<Role>]) {
        var target = path
        var targetRole = role
        while true {
            let wd = inotify_add_watch(fd, target, Self.mask)
            if wd >= 0 {
                wanted[wd, default: []].insert(targetRole)
                // The parent shows the directory being replaced, renamed or deleted.
                if targetRole == role, let (parent, name) = Self.split(target) {
                    let pwd = inotify_add_watch(fd, parent, Self.mask)
                    if pwd >= 0 { wanted[pwd, default: []].insert(.ancestor(child: name)) }
                }
                return
            }
            // Missing (or not a directory yet): wait for it to appear in the nearest existing ancestor.
            guard let (parent, name) = Self.split(target) else { return }
            target = parent
            targetRole = .ancestor(child: name)
        }
    }

    /// "/a/b/c" → ("/a/b", "c"); nil for "/".
    private static func split(_ path: String) -> (String, String)? {
        guard let slash = path.lastIndex(of: "/"), path != "/" else { return nil }
        let name = String(path[path.index(after: slash)...])
        let parent = slash == path.startIndex ? "/" : String(path[..<slash])
        return name.isEmpty ? nil : (parent, name)
    }
}
