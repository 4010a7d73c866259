/// The decode thread and the state it shares with the event loop, under one condition lock.
/// The loop says which playlist indices it wants, most urgent first; the worker decodes the
/// first wanted one that is neither cached nor failed, then reports through `onResult`.
/// Kept apart from `ImageStore` so the thread holds this object, not the store, and the
/// store's deinit can stop it without waiting: a decode in flight (seconds for a huge photo)
/// finishes on the thread and is dropped, and `onResult` is never called after `stop()`.
final class DecodeWorker: @unchecked Sendable {
    struct Update: Equatable {
        var ready: [Int] = []
        var failed: [Int] = []
        var isEmpty: Bool { ready.isEmpty && failed.isEmpty }
    }

    let paths: [String]
    /// Cards on disk: a hit is one read instead of a decode; nil decodes every card.
    private let diskCache: (any CardCaching)?
    private let condition = ConditionLock()
    private let onResult: @Sendable () -> Void
    // Everything below is guarded by `condition`.
    private var spec: CardSpec
    private var generation = 0
    private var wanted: [Int] = []
    private var cache: [Int: Card] = [:]
    private var failures: [Int: ImageError] = [:]
    private var inFlight: Int?
    private var pending = Update()
    private var stopping = false
    private var finished = false

    /// Decoded cards by path, at one card spec: what a reload carries to the next worker.
    struct Carried {
        var spec: CardSpec
        var cards: [String: Card]
    }

    /// `carried` cards start the cache at every index whose path they match, so a reload
    /// neither decodes them again nor shows their cards empty meanwhile. They stay only if the
    /// first `want` asks for their spec.
    init(paths: [String], spec: CardSpec, carried: Carried? = nil, diskCache: (any CardCaching)? = nil,
         onResult: @escaping @Sendable () -> Void) {
        self.paths = paths; self.onResult = onResult; self.diskCache = diskCache
        if let carried {
            self.spec = carried.spec
            for (index, path) in paths.enumerated() { cache[index] = carried.cards[path] }
        } else {
            self.spec = spec
        }
    }

    /// The decoded cards, by path, for the worker that replaces this one.
    func carry() -> Carried {
        condition.lock(); defer { condition.unlock() }
        var cards: [String: Card] = [:]
        for (index, card) in cache { cards[paths[index]] = card }
        return Carried(spec: spec, cards: cards)
    }

    func start() {
        DetachedThread.start(name: "carouseld-decode", background: true) { [self] in run() }
    }

    /// Tells the thread to exit after its current decode, whose result is dropped. Returns at
    /// once: the event loop never waits for a decode (a reload retires the old store this way).
    func stop() {
        condition.withLock {
            stopping = true
            cache.removeAll()
            condition.broadcast()
        }
    }

    /// Blocks until the thread has exited (tests).
    func waitUntilFinished() {
        condition.lock(); defer { condition.unlock() }
        while !finished { condition.wait() }
    }

    /// Sets the card look and the wanted indices; drops cards that are no longer wanted.
    /// Returns the cached cards among `visible`.
    func want(_ indices: [Int], spec newSpec: CardSpec, visible: [Int]) -> [Int: Card] {
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
        // Entries of files that left the playlist go before the first decode (a directory
        // listing: well under a millisecond for the few hundred entries the bound allows).
        diskCache?.prune()
        condition.lock()
        while !stopping {
            guard let index = wanted.first(where: { cache[$0] == nil && failures[$0] == nil }) else {
                condition.wait()
                continue
            }
            let job = (spec: spec, generation: generation)
            inFlight = index
            condition.unlock()
            let result = Result { () throws(ImageError) in try makeCard(path: paths[index], spec: job.spec) }
            if case .failure(let error) = result { Log.warning("skipping \(paths[index]): \(error)") }
            condition.lock()
            inFlight = nil
            if stopping { break }
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
            // Under the lock, so `stop()` returning means no further call: the callback
            // writes to the owner's eventfd, which is closed right after.
            onResult()
        }
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    private func makeCard(path: String, spec: CardSpec) throws(ImageError) -> Card {
        guard let diskCache else { return try ImageDecoder.makeCard(path: path, spec: spec) }
        return try diskCache.card(path: path, spec: spec) { () throws(ImageError) in
            try ImageDecoder.makeCard(path: path, spec: spec)
        }
    }
}
