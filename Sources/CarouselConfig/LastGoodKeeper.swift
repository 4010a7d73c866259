import CarouselCore

/// Saves each config that loaded cleanly as the last good one (`LastGoodConfig`), off the loop:
/// the save syncs to disk, which on an SD card can take a while. A save that fails is said once
/// until one succeeds (a read-only root fails every time).
final class LastGoodKeeper {
    private let path: String
    private let task: BackgroundTask<Result<Void, LastGoodConfig.Problem>>
    private var failing = false
    /// A config that came while a save ran: saved next.
    private var waiting: LoadedConfig?

    init(path: String, loop: EventLoop) {
        self.path = path
        task = BackgroundTask(name: "carouseld-keep-config", loop: loop)
    }

    func save(_ loaded: LoadedConfig) {
        guard !task.isRunning else { waiting = loaded; return }
        let path = path
        task.start({ LastGoodConfig.save(loaded, to: path) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                if failing { Log.notice("config: the last good config is saved again in \(path)") }
                failing = false
            case .failure(.changedSinceLoad):
                break
            case .failure(let problem):
                if !failing { Log.warning("config: cannot save the last good config in \(path): \(problem)") }
                failing = true
            }
            if let next = waiting { waiting = nil; save(next) }
        }
    }
}
