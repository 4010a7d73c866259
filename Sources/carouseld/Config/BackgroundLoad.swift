import CInput
import Glibc

/// Loads the config directory on a thread of its own: the media directory scan, the header
/// probes and the parse are file I/O (seconds on a slow SD card or network mount), and the event
/// loop must keep drawing meanwhile. The result is handed over through `fd`, an eventfd the
/// loop watches. One load at a time; a load is never cancelled, only its result taken later.
final class BackgroundLoad: @unchecked Sendable {
    typealias Loaded = Result<LoadedConfig, ConfigLoadError>

    /// Readable when a load finished; `take()` clears it.
    let fd: Int32
    private let lock = ConditionLock()
    private var result: Loaded?  // guarded by lock
    private(set) var isRunning = false

    init() throws {
        fd = try syscall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// Starts loading `directory` unless a load is already running.
    func start(directory: String) {
        guard !isRunning else { return }
        isRunning = true
        DetachedThread.start(name: "carouseld-load") { [self] in
            let loaded = ReloadController.load(directory: directory)
            lock.withLock { result = loaded }
            var one: UInt64 = 1
            _ = write(fd, &one, 8)
        }
    }

    /// The finished load, if there is one (on the loop, when `fd` is readable, or polling).
    func take() -> Loaded? {
        var count: UInt64 = 0
        _ = read(fd, &count, 8)
        let taken: Loaded? = lock.withLock {
            defer { result = nil }
            return result
        }
        if taken != nil { isRunning = false }
        return taken
    }
}
