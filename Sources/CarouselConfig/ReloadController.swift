import CarouselCore
import Glibc
/// Keeps the last good configuration and swaps in a new one only when it loads cleanly.
/// An invalid directory leaves the old config running, logs each problem as
/// `file:line: key: message` and puts "config invalid: …" in systemd's status line.
/// Used for inotify-triggered reloads and SIGHUP alike.
package final class ReloadController {
    package enum Outcome: Equatable {
        /// The new config is in place; `keepIndex` is the new index of the picture that was on screen.
        case applied(keepIndex: Int?)
        /// The directory loads to exactly what is running.
        case unchanged
        /// Invalid: the old config keeps running.
        case rejected([String])
    }

    package let directory: String
    package private(set) var current: LoadedConfig
    /// The problems of the last rejected reload; empty once a reload succeeds.
    package private(set) var problems: [String] = []
    private let notifier: Notifier

    /// The first load. With nothing to fall back to, problems are thrown; with `lastGood` (the
    /// path of a `LastGoodConfig` copy) an invalid directory starts on that copy instead, its
    /// problems kept as a rejected reload's are, until the directory loads cleanly.
    package init(directory: String, lastGood: String? = nil, notifier: Notifier = Notifier()) throws(ConfigLoadError) {
        self.directory = directory
        self.notifier = notifier
        do {
            current = try ConfigLoader.load(directory: directory)
        } catch {
            guard let lastGood, let restored = Self.loadLastGood(lastGood, directory: directory) else { throw error }
            Log.error("config \(directory) is invalid (\(error.problems.count) problem(s)):")
            error.problems.forEach { Log.error($0) }
            Log.warning("config: showing the last good config (\(lastGood)) until \(directory) is valid again")
            problems = error.problems
            current = restored
        }
        current.warnings.forEach { Log.warning($0) }
    }

    /// The last good copy restored beside the runtime files and loaded as if from `directory`;
    /// nil (said once) when there is none or it does not load.
    private static func loadLastGood(_ path: String, directory: String) -> LoadedConfig? {
        guard access(path, F_OK) == 0 else { return nil }
        let base = UnitDirectory.first("RUNTIME_DIRECTORY") ?? "/tmp"
        let files = "\(base)/last-good-config.\(getpid())"
        do {
            try LastGoodConfig.restore(from: path, into: files)
            return try ConfigLoader.load(directory: directory, filesFrom: files)
        } catch let error as LastGoodConfig.Problem {
            Log.warning("config: the last good config \(path) is not used: \(error)")
        } catch let error as ConfigLoadError {
            Log.warning("config: the last good config \(path) does not load either: \(error.problems.first ?? "")")
        } catch {}
        return nil
    }

    /// Reads and checks the directory: file I/O, so the daemon runs it off the event loop.
    package static func load(directory: String) -> Result<LoadedConfig, ConfigLoadError> {
        Result { () throws(ConfigLoadError) in try ConfigLoader.load(directory: directory) }
    }

    /// Reads the directory now and accepts it if valid (tests; the daemon loads off the loop).
    package func reload(selectedIndex: Int = 0) -> Outcome {
        accept(Self.load(directory: directory), selectedIndex: selectedIndex)
    }

    /// Keeps what `load` read if it is valid, else keeps the running config and says why.
    /// `selectedIndex` is the picture on screen: `.applied` says where it is in the new playlist.
    package func accept(_ result: Result<LoadedConfig, ConfigLoadError>, selectedIndex: Int) -> Outcome {
        let showing = current.playlist.indices.contains(selectedIndex) ? current.playlist[selectedIndex].path : nil
        notifier.reloading()
        defer { notifier.reloaded() }
        let loaded: LoadedConfig
        do {
            loaded = try result.get()
        } catch {
            problems = error.problems
            Log.error("config invalid, keeping the running one (\(error.problems.count) problem(s)):")
            error.problems.forEach { Log.error($0) }
            return .rejected(error.problems)
        }
        loaded.warnings.forEach { Log.warning($0) }
        problems = []
        var sameBytes = loaded
        sameBytes.configDigest = current.configDigest   // comments or spacing alone change nothing
        if sameBytes == current { return .unchanged }
        let keepIndex = showing.flatMap { Self.index(of: $0, in: loaded.playlist, near: selectedIndex) }
        current = loaded
        Log.notice("config reloaded from \(directory): \(loaded.playlist.count) image(s)")
        return .applied(keepIndex: keepIndex)
    }

    /// Where `path` is in the new playlist; of several occurrences, the one nearest the old index.
    package static func index(of path: String, in playlist: [PlaylistItem], near old: Int) -> Int? {
        playlist.indices.filter { playlist[$0].path == path }.min { abs($0 - old) < abs($1 - old) }
    }
}
