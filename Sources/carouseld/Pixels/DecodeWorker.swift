import Foundation

/// The decode thread and the state it shares with the event loop, under one condition lock.
/// The loop says which playlist indices it wants, most urgent first; the worker decodes the
/// first wanted one that is neither cached nor failed, then reports through `onResult`.
/// Kept apart from `ImageStore` so the thread holds this object, not the store, and the
/// store's deinit can stop it.
final class DecodeWorker: @unchecked Sendable {
    struct Update: Equatable {
        var ready: [Int] = []
        var failed: [Int] = []
        var isEmpty: Bool { ready.isEmpty && failed.isEmpty }
    }

    let paths: [String]
    private let condition = NSCondition()
    private let onResult: @Sendable () -> Void
    // Everything below is guarded by `condition`.
    private var spec: CardSpec
    private var generation = 0
    private var wanted: [Int] = []
    private var cache: [Int: PixelImage] = [:]
    private var failures: [Int: ImageError] = [:]
    private var inFlight: Int?
    private var pending = Update()
    private var stopping = false
    private var finished = false

    init(paths: [String], spec: CardSpec, onResult: @escaping @Sendable () -> Void) {
        self.paths = paths; self.spec = spec; self.onResult = onResult
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "carouseld-decode"
        thread.start()
    }

    /// Asks the thread to finish its current decode and exit, and waits for it.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// Sets the card look and the wanted indices; drops cards that are no longer wanted.
    /// Returns the cached cards among `visible`.
    func want(_ indices: [Int], spec newSpec: CardSpec, visible: [Int]) -> [Int: PixelImage] {
        condition.lock(); defer { condition.unlock() }
        if newSpec != spec {
            spec = newSpec; generation += 1; cache.removeAll()
        }
        wanted = indices
        let keep = Set(indices)
        cache = cache.filter { keep.contains($0.key) }
        condition.broadcast()
        return cache.filter { visible.contains($0.key) }
    }

    /// Puts `indices` first in the queue and blocks until each is decoded or failed.
    func waitUntilLoaded(_ indices: [Int]) {
        condition.lock(); defer { condition.unlock() }
        wanted = indices + wanted.filter { !indices.contains($0) }
        condition.broadcast()
        while !stopping, indices.contains(where: { cache[$0] == nil && failures[$0] == nil }) {
            condition.wait()
        }
    }

    func takeUpdate() -> Update {
        condition.lock(); defer { condition.unlock() }
        let update = pending
        pending = Update()
        return update
    }

    func failure(at index: Int) -> ImageError? {
        condition.lock(); defer { condition.unlock() }
        return failures[index]
    }

    var cachedCount: Int {
        condition.lock(); defer { condition.unlock() }
        return cache.count
    }

    private func run() {
        condition.lock()
        while !stopping {
            guard let index = wanted.first(where: { cache[$0] == nil && failures[$0] == nil }) else {
                condition.wait()
                continue
            }
            let job = (spec: spec, generation: generation)
            inFlight = index
            condition.unlock()
            let result = Result { () throws(ImageError) in try ImageDecoder.makeCard(path: paths[index], spec: job.spec) }
            if case .failure(let error) = result { Log.warning("skipping \(paths[index]): \(error)") }
            condition.lock()
            inFlight = nil
            switch result {
            case .success(let card):
                // A result for an old card size, or for a card scrolled away meanwhile, is dropped.
                if job.generation == generation && wanted.contains(index) {
                    cache[index] = card
                    pending.ready.append(index)
                }
            case .failure(let error):
                failures[index] = error
                pending.failed.append(index)
            }
            condition.broadcast()
            condition.unlock()
            onResult()
            condition.lock()
        }
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}
