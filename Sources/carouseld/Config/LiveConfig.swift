import CarouselEngine

/// The daemon's handle on its config directory: one file descriptor for the event loop and
/// one reload path for inotify and SIGHUP alike.
///
/// Wiring in the daemon:
///   loop.add(fd: live.fd) { live.handleReadable(now: MonotonicClock.now()) }
///   on SIGHUP:            live.requestReload()
///   each loop turn/frame: if let outcome = live.reloadIfDue(engine: &engine, now: now) { … }
///   sleep no longer than: live.nextDeadline
/// A reload is held back while a finger drags or the strip settles, so it never yanks the
/// strip from under the finger; it is applied on the first idle turn after that.
final class LiveConfig {
    let controller: ReloadController
    let watcher: ConfigWatcher
    private var requested = false
    /// While a requested reload waits for the strip to rest: when to look again.
    private var retryAt: Double?
    /// How often a held-back reload looks again; polling each loop turn would spin during a drag.
    static let retryInterval = 0.1

    /// The first load: throws `ConfigLoadError` when the directory is invalid, `SystemError` when
    /// inotify is unavailable.
    init(directory: String, notifier: Notifier = Notifier()) throws {
        controller = try ReloadController(directory: directory, notifier: notifier)
        watcher = try ConfigWatcher(watching: controller.current)
        controller.watcher = watcher
    }

    var current: LoadedConfig { controller.current }
    var fd: Int32 { watcher.fd }

    /// When the loop must call `reloadIfDue` although nothing else happens.
    var nextDeadline: Double? { requested ? (retryAt ?? 0) : watcher.nextDeadline }

    func handleReadable(now: Double) { watcher.handleReadable(now: now) }

    /// SIGHUP: reload on the next idle turn, without waiting for the debounce.
    func requestReload() {
        requested = true
        retryAt = nil
    }

    /// Reloads if the debounce has elapsed or SIGHUP asked, and the engine is at rest.
    /// Returns the outcome when a reload ran (the daemon then refreshes its image store on
    /// `.applied`), nil when none was due.
    func reloadIfDue(engine: inout CarouselEngine, now: Double) -> ReloadController.Outcome? {
        if watcher.fire(now: now) { requested = true }
        guard requested else { return nil }
        if engine.isMoving {
            retryAt = now + Self.retryInterval
            return nil
        }
        requested = false
        retryAt = nil
        return controller.reload(engine: &engine, now: now)
    }
}
