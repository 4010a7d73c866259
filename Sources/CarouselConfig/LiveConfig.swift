import CarouselCore
import CarouselEngine

/// The daemon's reload, top to bottom; the same for inotify and SIGHUP:
///   1. change    inotify events (`handleReadable`) or SIGHUP (`requestReload`)
///   2. debounce  `ConfigWatcher` waits for 200 ms of quiet (at most 2 s into a burst)
///   3. load      a `BackgroundTask` reads and parses the directory on its own thread
///   4. validate  `ReloadController` keeps the last good config: an invalid directory is
///                logged and named in the status line, and the old config stays
///   5. swap      on the loop, once the strip rests: `.applied` tells the caller to swap in
///                `current` (engine, image store, input); the watcher follows a new media directory
/// Nothing here blocks the event loop: the loop wakes for the debounce deadline, the load's
/// result (handed to the loop with `execute`) and the retry while the strip moves, and never
/// waits on file I/O.
///
/// Wiring in the daemon (`ReloadCoordinator`):
///   watch live.fd:        live.handleReadable(now:)
///   loaded (at init):     a load finished, on the loop (the timer looks again)
///   on SIGHUP:            live.requestReload()
///   a loop timer at live.nextDeadline: live.reloadIfDue(now:isMoving:selectedIndex:)
package final class LiveConfig {
    package let controller: ReloadController
    private let watcher: ConfigWatcher
    private let load: BackgroundTask<Result<LoadedConfig, ConfigLoadError>>
    /// A change was seen (and debounced) or SIGHUP asked: load when no load is running.
    private var requested = false
    /// What the last load read, waiting for the strip to rest.
    private var loaded: Result<LoadedConfig, ConfigLoadError>?
    /// While a loaded config waits for the strip to rest: when to look again.
    private var retryAt: Double?
    /// How often a held-back reload looks again; polling each loop turn would spin during a drag.
    package static let retryInterval = 0.1
    /// Called on the loop when a background load finished: `nextDeadline` is now due.
    private let finishedLoading: () -> Void
    private let loop: EventLoop
    private let keeper: LastGoodKeeper?

    /// The first load (on the caller's thread: nothing is on screen yet): throws
    /// `ConfigLoadError` when the directory is invalid, `SystemError` when inotify is unavailable.
    /// `lastGood`: where the last config that loaded cleanly is kept (`LastGoodConfig`), saved
    /// off the loop after every clean load and started from when the directory is invalid.
    package init(directory: String, lastGood: String? = nil, notifier: Notifier = Notifier(), loop: EventLoop,
                 loaded finishedLoading: @escaping () -> Void = {}) throws {
        self.finishedLoading = finishedLoading; self.loop = loop
        controller = try ReloadController(directory: directory, lastGood: lastGood, notifier: notifier)
        watcher = try ConfigWatcher(watching: controller.current)
        load = BackgroundTask(name: "carouseld-load", loop: loop)
        keeper = lastGood.map { LastGoodKeeper(path: $0, loop: loop) }
        if controller.problems.isEmpty { keeper?.save(controller.current) }
    }

    package var current: LoadedConfig { controller.current }
    /// The image directory being watched.
    package var watchedMediaDirectory: String { watcher.mediaDirectory }
    /// inotify: readable on changes in the config or media directory.
    package var fd: Int32 { watcher.fd }
    /// A background load runs (its result comes to the loop, then `loaded`).
    package var isLoading: Bool { load.isRunning }

    /// When the loop must call `reloadIfDue` although nothing else happens.
    package var nextDeadline: Double? {
        if loaded != nil { return retryAt ?? 0 }
        if requested && !load.isRunning { return 0 }
        return watcher.nextDeadline  // a running load wakes the loop when it is handed over
    }

    /// Nothing pending: no change waiting out its debounce, no load running or waiting to swap.
    package var isIdle: Bool { nextDeadline == nil && !load.isRunning }

    // 1. Change

    package func handleReadable(now: Double) { watcher.handleReadable(now: now) }

    /// SIGHUP: reload on the next turn, without waiting for the debounce.
    package func requestReload() { requested = true }

    /// Steps 2 to 5, as far as they are due, for a strip that moves or not and shows picture
    /// `selectedIndex` (that picture stays on screen across the swap). Returns the outcome when
    /// a swap was tried: on `.applied`, the caller puts `current` in place.
    @discardableResult
    package func reloadIfDue(now: Double, isMoving: Bool, selectedIndex: Int) -> ReloadController.Outcome? {
        // 2. Debounce
        if watcher.fire(now: now) { requested = true }
        // 3. Load, off the loop
        if requested && loaded == nil && !load.isRunning {
            requested = false
            let directory = controller.directory
            load.start({ ReloadController.load(directory: directory) }) { [weak self] result in
                guard let self else { return }
                loaded = result
                // Told from the loop, after this handler: the caller's reload runs in this turn,
                // never inside the load's bookkeeping.
                loop.post(finishedLoading)
            }
        }
        guard let result = loaded else { return nil }
        if isMoving {
            retryAt = now + Self.retryInterval
            return nil
        }
        loaded = nil
        retryAt = nil
        let wasInvalid = !controller.problems.isEmpty
        // 4. Validate: the controller keeps the last good config
        let outcome = controller.accept(result, selectedIndex: selectedIndex)
        // 5. Swap (the caller's), the watcher following the new media directory; the caller
        // publishes the status (the problems, while rejected)
        if case .applied = outcome { watcher.setMediaDirectory(current.mediaDirectory) }
        if case .applied = outcome { keeper?.save(current) } else if case .unchanged = outcome, wasInvalid { keeper?.save(current) }
        return outcome
    }
}
