import CarouselCore
/// The decode thread and the state it shares with the event loop, under one condition lock.
/// The loop says which playlist indices it wants, most urgent first; the worker decodes the
/// first wanted one that is neither cached nor failed, then reports through `onResult`.
/// Before a wanted card's full decode it decodes its preview (`CardSpec.preview`), so every
/// wanted card has something to show early; then the previews of a wider window, for flings.
/// Kept apart from `ImageStore` so the thread holds this object, not the store, and the
/// store's deinit can stop it without waiting: a decode in flight (seconds for a huge photo)
/// finishes on the thread and is dropped, and `onResult` is never called after `stop()`.
package final class DecodeWorker: @unchecked Sendable {
    package struct Update: Equatable {
        package var ready: [Int] = []
        package var failed: [Int] = []
        package var isEmpty: Bool { ready.isEmpty && failed.isEmpty }
    }

    package let paths: [String]
    /// Cards on disk: a hit is one read instead of a decode; nil decodes every card.
    private let diskCache: (any CardCaching)?
    private let condition = ConditionLock()
    private let onResult: @Sendable () -> Void
    /// Tests: called on the worker thread before each decode, with the index and whether it
    /// is a preview; may block to hold the decode.
    private let beforeDecode: (@Sendable (Int, Bool) -> Void)?
    // Everything below is guarded by `condition`.
    private var spec: CardSpec
    private var generation = 0
    private var wanted: [Int] = []
    private var cache: [Int: Card] = [:]
    /// Previews kept for `previewWanted` (a wider window than `wanted`); at `spec.preview`.
    /// Its first `previewsAhead` are decoded before the full cards of cards not on screen.
    private var previewWanted: [Int] = []
    private var previewsAhead = 0
    private var visible: [Int] = []
    private var previews: [Int: Card] = [:]
    /// Indices someone blocks on in `waitUntilLoaded`: their full cards first, no previews.
    private var blocking: [Int] = []
    /// Cards that could not be made, and the file as it was when that decode started.
    private var failures: [Int: (error: ImageError, file: FileStamp?)] = [:]
    private var inFlight: Int?
    private var pending = Update()
    private var stopping = false
    private var finished = false

    /// Decoded cards by path, at one card spec: what a reload carries to the next worker.
    package struct Carried {
        package var spec: CardSpec
        package var cards: [String: Card]
        /// Previews at `spec.preview`, so a fling just after a reload still finds them.
        package var previews: [String: Card] = [:]
    }

    /// `carried` cards start the cache at every index whose path they match, so a reload
    /// neither decodes them again nor shows their cards empty meanwhile. They stay only if the
    /// first `want` asks for their spec.
    package init(paths: [String], spec: CardSpec, carried: Carried? = nil, diskCache: (any CardCaching)? = nil,
         beforeDecode: (@Sendable (Int, Bool) -> Void)? = nil, onResult: @escaping @Sendable () -> Void) {
        self.paths = paths; self.onResult = onResult; self.diskCache = diskCache; self.beforeDecode = beforeDecode
        if let carried {
            self.spec = carried.spec
            for (index, path) in paths.enumerated() {
                cache[index] = carried.cards[path]
                previews[index] = carried.previews[path]
            }
        } else {
            self.spec = spec
        }
    }

    /// The decoded cards, by path, for the worker that replaces this one.
    package func carry() -> Carried {
        condition.lock(); defer { condition.unlock() }
        var cards: [String: Card] = [:], small: [String: Card] = [:]
        for (index, card) in cache { cards[paths[index]] = card }
        for (index, card) in previews { small[paths[index]] = card }
        return Carried(spec: spec, cards: cards, previews: small)
    }

    package func start() {
        DetachedThread.start(name: "carouseld-decode", background: true) { [self] in run() }
    }

    /// Tells the thread to exit after its current decode, whose result is dropped. Returns at
    /// once: the event loop never waits for a decode (a reload retires the old store this way).
    package func stop() {
        condition.withLock {
            stopping = true
            cache.removeAll()
            previews.removeAll()
            condition.broadcast()
        }
    }

    /// Blocks until the thread has exited (tests).
    package func waitUntilFinished() {
        condition.lock(); defer { condition.unlock() }
        while !finished { condition.wait() }
    }

    /// Sets the card look and the wanted indices (full cards) and `previewIndices` (previews
    /// kept, the first `ahead` of them urgent; the wanted ones get theirs anyway); drops cards
    /// that are no longer wanted. Returns, for each of `visible`, its full card, else its
    /// preview (`isPreview`).
    package func want(_ indices: [Int], previews previewIndices: [Int] = [], ahead: Int = 0, spec newSpec: CardSpec,
              visible: [Int]) -> [Int: Card] {
        condition.lock(); defer { condition.unlock() }
        if newSpec != spec {
            spec = newSpec; generation += 1; cache.removeAll(); previews.removeAll()
        }
        wanted = indices
        previewWanted = previewIndices
        previewsAhead = ahead
        self.visible = visible
        let keep = Set(indices)
        cache = cache.filter { keep.contains($0.key) }
        let keepPreviews = keep.union(previewIndices)
        previews = previews.filter { keepPreviews.contains($0.key) }
        condition.broadcast()
        var shown: [Int: Card] = [:]
        for index in visible { shown[index] = cache[index] ?? previews[index] }
        return shown
    }

    /// Puts `indices` first in the queue and blocks until each is decoded or failed.
    /// Their previews are skipped: whoever blocks wants the full cards, and soonest.
    package func waitUntilLoaded(_ indices: [Int]) {
        condition.lock(); defer { condition.unlock() }
        wanted = indices + wanted.filter { !indices.contains($0) }
        blocking += indices
        defer { for index in indices { if let at = blocking.firstIndex(of: index) { blocking.remove(at: at) } } }
        condition.broadcast()
        while !stopping, indices.contains(where: { cache[$0] == nil && failures[$0] == nil }) {
            condition.wait()
        }
    }

    /// Blocks until every wanted preview is decoded (or has its full card, or failed): the
    /// benchmark waits so, as during auto-advance's interval, before it times frames.
    package func waitUntilPreviewsLoaded() {
        condition.lock(); defer { condition.unlock() }
        while !stopping, nextJob() != nil { condition.wait() }
    }

    package func takeUpdate() -> Update {
        condition.lock(); defer { condition.unlock() }
        let update = pending
        pending = Update()
        return update
    }

    package func failure(at index: Int) -> ImageError? {
        condition.lock(); defer { condition.unlock() }
        return failures[index]?.error
    }

    /// Every card that could not be made, by index.
    package var failedCards: [Int: ImageError] {
        condition.lock(); defer { condition.unlock() }
        return failures.mapValues(\.error)
    }

    /// Forgets the failures of files that changed since their decode started (a picture
    /// copied in place was read half-written), so the worker makes them again. Returns those
    /// indices. The files are stat'ed outside the lock.
    @discardableResult
    package func retryChangedFailures() -> [Int] {
        let failed = condition.withLock { failures.mapValues(\.file) }
        let changed = failed.filter { FileStamp(path: paths[$0.key]) != $0.value }.map(\.key).sorted()
        guard !changed.isEmpty else { return [] }
        condition.withLock {
            for index in changed { failures[index] = nil }
            condition.broadcast()
        }
        return changed
    }

    package var cachedCount: Int {
        condition.lock(); defer { condition.unlock() }
        return cache.count
    }

    package var previewCount: Int {
        condition.lock(); defer { condition.unlock() }
        return previews.count
    }

    /// What to decode next, under the lock: the full cards someone blocks on; a preview for
    /// each wanted card that has neither; the full cards on screen; the previews just ahead
    /// (cards a page change brings in next, so a slow box's long decodes of off-screen cards
    /// never leave them bare); the other wanted full cards; the rest of the previews. Every
    /// list is already in priority order.
    private func nextJob() -> (index: Int, preview: Bool)? {
        func open(_ index: Int) -> Bool { cache[index] == nil && failures[index] == nil }
        func needsPreview(_ index: Int) -> Bool { open(index) && previews[index] == nil && !blocking.contains(index) }
        if let index = blocking.first(where: open) { return (index, false) }
        let previewing = spec.preview != nil
        if previewing, let index = wanted.first(where: needsPreview) { return (index, true) }
        if let index = wanted.first(where: { open($0) && visible.contains($0) }) { return (index, false) }
        if previewing, let index = previewWanted.prefix(previewsAhead).first(where: needsPreview) { return (index, true) }
        if let index = wanted.first(where: open) { return (index, false) }
        if previewing, let index = previewWanted.first(where: needsPreview) { return (index, true) }
        return nil
    }

    private func run() {
        // Entries of files that left the playlist go before the first decode (a directory
        // listing: well under a millisecond for the few hundred entries the bound allows).
        diskCache?.prune()
        condition.lock()
        while !stopping {
            guard let (index, isPreview) = nextJob(), let jobSpec = isPreview ? spec.preview : spec else {
                condition.wait()
                continue
            }
            let job = (spec: jobSpec, generation: generation)
            inFlight = index
            condition.unlock()
            beforeDecode?(index, isPreview)
            // Stamped before reading: a file still being written changes after, and is retried.
            let file = FileStamp(path: paths[index])
            let result = Result { () throws(ImageError) in try makeCard(path: paths[index], spec: job.spec) }
            // A preview's failure is the file's: what it read (for a draft, the first scans) is bad.
            if case .failure(let error) = result { Log.warning("skipping \(paths[index]): \(error)") }
            condition.lock()
            inFlight = nil
            if stopping { break }
            switch result {
            case .success(let card):
                // A result for an old card size, or for a card scrolled away meanwhile, is dropped.
                if job.generation == generation && isPreview && (wanted.contains(index) || previewWanted.contains(index)) {
                    card.isPreview = true
                    previews[index] = card
                    pending.ready.append(index)
                } else if job.generation == generation && !isPreview && wanted.contains(index) {
                    cache[index] = card
                    pending.ready.append(index)
                }
            case .failure where FileStamp(path: paths[index]) != file:
                // The file changed while it was read (still being copied in): read it again.
                break
            case .failure(let error):
                failures[index] = (error, file)
                // A draft preview reads only a progressive file's first scans, so it can exist
                // for a file whose full decode fails: the skipped card shows nothing, not it.
                previews[index] = nil
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
