import CarouselCore
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

    /// The first load. There is nothing to fall back to yet, so problems are thrown.
    package init(directory: String, notifier: Notifier = Notifier()) throws(ConfigLoadError) {
        self.directory = directory
        self.notifier = notifier
        current = try ConfigLoader.load(directory: directory)
        current.warnings.forEach { Log.warning($0) }
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
