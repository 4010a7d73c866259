import CarouselEngine

/// The daemon's reload, in the order it happens; the same for inotify and SIGHUP:
///   1. change    inotify events (`handleReadable`) or SIGHUP (`requestReload`)
///   2. debounce  `ConfigWatcher` waits for 200 ms of quiet (at most 2 s into a burst)
///   3. load      a `BackgroundTask` reads and parses the directory on its own thread
///   4. validate  the loader's problems: an invalid directory is logged, the old config stays
///   5. swap      on the loop, once the strip rests: `ReloadController.apply` reconfigures the
///                engine; the daemon then makes a new image store (the old one is retired
///                without waiting for its decode)
/// Nothing here blocks the event loop: the loop wakes for the debounce deadline, the load's
/// eventfd and the retry while the strip moves, and never waits on file I/O.
///
/// Wiring in the daemon:
///   loop.add(fd: live.fd) { live.handleReadable(now: MonotonicClock.now()) }
///   loop.add(fd: live.loadFD) { live.handleLoaded() }
///   on SIGHUP:            live.requestReload()
///   each loop turn/frame: if let outcome = live.reloadIfDue(engine: &engine, now: now) { … }
///   sleep no longer than: live.nextDeadline
final class LiveConfig {
    let controller: ReloadController
    let watcher: ConfigWatcher
    private let load: BackgroundTask<Result<LoadedConfig, ConfigLoadError>>
    /// A change was seen (and debounced) or SIGHUP asked: load when no load is running.
    private var requested = false
    /// What the last load read, waiting for the strip to rest.
    private var loaded: Result<LoadedConfig, ConfigLoadError>?
    /// While a loaded config waits for the strip to rest: when to look again.
    private var retryAt: Double?
    /// How often a held-back reload looks again; polling each loop turn would spin during a drag.
    static let retryInterval = 0.1

    /// The first load (on the caller's thread: nothing is on screen yet): throws
    /// `ConfigLoadError` when the directory is invalid, `SystemError` when inotify is unavailable.
    init(directory: String, notifier: Notifier = Notifier()) throws {
        controller = try ReloadController(directory: directory, notifier: notifier)
        watcher = try ConfigWatcher(watching: controller.current)
        controller.watcher = watcher
        load = try BackgroundTask(name: "carouseld-load")
    }

    var current: LoadedConfig { controller.current }
    /// inotify: readable on changes in the config or media directory.
    var fd: Int32 { watcher.fd }
    /// Readable when a background load finished.
    var loadFD: Int32 { load.fd }

    /// When the loop must call `reloadIfDue` although nothing else happens.
    var nextDeadline: Double? {
        if loaded != nil { return retryAt ?? 0 }
        if requested && !load.isRunning { return 0 }
        return watcher.nextDeadline  // a running load wakes the loop through loadFD
    }

    func handleReadable(now: Double) { watcher.handleReadable(now: now) }

    /// SIGHUP: reload on the next turn, without waiting for the debounce.
    func requestReload() { requested = true }

    /// A background load finished (`loadFD` readable).
    func handleLoaded() {
        if let result = load.take() { loaded = result }
    }

    /// Starts a load once a change is debounced (or SIGHUP asked), and swaps in a finished one
    /// when the engine is at rest. Returns the outcome when a swap ran (the daemon then
    /// refreshes its image store on `.applied`), nil otherwise.
    func reloadIfDue(engine: inout CarouselEngine, now: Double) -> ReloadController.Outcome? {
        if watcher.fire(now: now) { requested = true }
        if requested && loaded == nil && !load.isRunning {
            requested = false
            let directory = controller.directory
            load.start { ReloadController.load(directory: directory) }
        }
        guard let result = loaded else { return nil }
        if engine.isMoving {
            retryAt = now + Self.retryInterval
            return nil
        }
        loaded = nil
        retryAt = nil
        return controller.apply(result, engine: &engine, now: now)
    }
}
