import Glibc
import CarouselCore
/// The decode thread and the state it shares with the event loop, under one condition lock.
/// The loop says which playlist indices it wants, most urgent first; the worker decodes the
/// first wanted one that is neither cached nor failed, then reports through `onResult`.
/// Before a wanted card's full decode it decodes its preview (`CardSpec.preview`), so every
/// wanted card has something to show early, where the preview is the cheaper decode (a JPEG's,
/// `ImageFormat.hasCheapPreview`); then the previews of a wider window, for flings.
/// Kept apart from `ImageStore` so the thread holds this object, not the store, and the
/// store's deinit can stop it without waiting: a decode in flight (seconds for a huge photo)
/// finishes on the thread and is dropped, and `onResult` is never called after `stop()`.
package final class DecodeWorker: @unchecked Sendable {
    package let paths: [String]
    /// Cards on disk: a hit is one read instead of a decode; nil decodes every card.
    private let diskCache: (any CardCaching)?
    private let condition = ConditionLock()
    private let onResult: @Sendable () -> Void
    /// Tests: called on the worker thread before each decode, with the index and whether it
    /// is a preview; may block to hold the decode.
    private let beforeDecode: (@Sendable (Int, Bool) -> Void)?
    /// Threads beside the first that decode only the full cards on screen: on a box with a core
    /// to spare, a first frame's cards (the picture and its neighbours' edges) decode side by
    /// side. Prefetch, previews and the disk cache stay with the first thread, so at most
    /// `1 + helperThreads` decodes run at once, and as many only while several cards on
    /// screen wait for theirs.
    private let helperThreads: Int
    // Everything below is guarded by `condition`.
    private var spec: CardSpec
    private var generation = 0
    private var wants = Wants()
    private var made = Made()
    private var pending = Update()
    /// Cards a thread is decoding now (preview or full): no other thread takes them.
    private var busy: Set<Int> = []
    /// Threads not yet exited.
    private var threadsRunning = 0
    /// Running until `stop()`; finished once the thread has exited.
    private var life = Life.running
    private enum Life { case running, stopping, finished }
    /// Times `want` woke the thread for new work.
    private var wakes = 0

    /// `carried` cards start the cache at every index whose path they match, so a reload
    /// neither decodes them again nor shows their cards empty meanwhile. They stay only if the
    /// first `want` asks for their spec.
    package init(paths: [String], spec: CardSpec, carried: Carried? = nil, diskCache: (any CardCaching)? = nil,
                 helperThreads: Int = 0, beforeDecode: (@Sendable (Int, Bool) -> Void)? = nil,
                 onResult: @escaping @Sendable () -> Void) {
        self.paths = paths; self.onResult = onResult; self.diskCache = diskCache; self.beforeDecode = beforeDecode
        self.helperThreads = max(0, helperThreads)
        if let carried {
            self.spec = carried.spec
            for (index, path) in paths.enumerated() {
                made.cards[index] = carried.cards[path]
                made.previews[index] = carried.previews[path]
            }
        } else {
            self.spec = spec
        }
    }

    /// The decoded cards, by path, for the worker that replaces this one.
    package func carry() -> Carried {
        condition.lock(); defer { condition.unlock() }
        var cards: [String: Card] = [:], small: [String: Card] = [:]
        for (index, card) in made.cards { cards[paths[index]] = card }
        for (index, card) in made.previews { small[paths[index]] = card }
        return Carried(spec: spec, cards: cards, previews: small)
    }

    /// `urgentUntilIdle`: the threads run at the loop's priority until they first have nothing
    /// to decode, then lower themselves (`DetachedThread.backgroundNice`). Before the first frame
    /// no frame can be held up, and at boot a niced decode waits behind every other service
    /// starting: the first picture's decodes are what the screen waits for.
    package func start(urgentUntilIdle urgent: Bool = false) {
        condition.withLock { threadsRunning = 1 + helperThreads }
        DetachedThread.start(name: "carouseld-decode", background: !urgent) { [self] in run(helper: false, urgent: urgent) }
        for _ in 0..<helperThreads {
            DetachedThread.start(name: "carouseld-decode", background: !urgent) { [self] in run(helper: true, urgent: urgent) }
        }
    }

    /// Two helpers where the machine has two cores or more: what the daemon's stores use. A
    /// first frame has three cards on screen (the picture and its neighbours' edges); with one
    /// helper the third waits for one of the first two, where three at once end at 1.5
    /// card-times instead of 2 (the cold start's figures: docs/testing.md).
    package static var helpersForThisMachine: Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 ? 2 : 0 }

    /// Tells the thread to exit after its current decode, whose result is dropped. Returns at
    /// once: the event loop never waits for a decode (a reload retires the old store this way).
    package func stop() {
        condition.withLock {
            life = .stopping
            made.cards.removeAll()
            made.previews.removeAll()
            condition.broadcast()
        }
    }

    /// Blocks until the threads have exited (the offline commands, before they exit; tests).
    package func waitUntilFinished() {
        condition.lock(); defer { condition.unlock() }
        while life != .finished { condition.wait() }
    }

    /// Sets the card look and the wanted indices (full cards) and `previewIndices` (previews
    /// kept, the first `ahead` of them urgent; the wanted ones get theirs anyway); drops cards
    /// that are no longer wanted. Returns, for each of `visible`, its full card, else its
    /// preview (`isPreview`).
    package func want(_ indices: [Int], previews previewIndices: [Int] = [], ahead: Int = 0, spec newSpec: CardSpec,
              visible: [Int]) -> [Int: Card] {
        condition.lock(); defer { condition.unlock() }
        var asked = wants
        asked.full = indices
        asked.previews = previewIndices
        asked.previewsAhead = ahead
        asked.visible = visible
        // Most frames of a page change ask for what the last one did: the worker is woken only
        // when there is news for it (a wake-up per frame costs a context switch each).
        if newSpec != spec || asked != wants {
            if newSpec != spec {
                spec = newSpec; generation += 1; made.cards.removeAll(); made.previews.removeAll()
            }
            wants = asked
            let keep = Set(indices)
            made.cards = made.cards.filter { keep.contains($0.key) }
            let keepPreviews = keep.union(previewIndices)
            made.previews = made.previews.filter { keepPreviews.contains($0.key) }
            // Only for work: a new order or window over cards all made (most changes in a page
            // change: a card comes or goes, the spring's overshoot turns the direction) would
            // wake the thread to find nothing, a context switch each way.
            if nextJob() != nil {
                wakes += 1
                condition.broadcast()
            }
        }
        return shownLocked(visible)
    }

    /// Times a new ask woke the thread (tests).
    package var wakeCount: Int { condition.withLock { wakes } }

    /// For each of `visible`, its full card, else its preview: what `want` returns, for a frame
    /// that asks what the one before it asked.
    package func shown(_ visible: [Int]) -> [Int: Card] {
        condition.lock(); defer { condition.unlock() }
        return shownLocked(visible)
    }

    private func shownLocked(_ visible: [Int]) -> [Int: Card] {
        var shown: [Int: Card] = [:]
        for index in visible { shown[index] = made.cards[index] ?? made.previews[index] }
        return shown
    }

    /// The full cards of `indices` that are decoded, in that order (no previews).
    package func decoded(_ indices: [Int]) -> [Card] {
        condition.withLock { indices.compactMap { made.cards[$0] } }
    }

    /// Puts `indices` first in the queue and blocks until each is decoded or failed.
    /// Their previews are skipped: whoever blocks wants the full cards, and soonest.
    package func waitUntilLoaded(_ indices: [Int]) {
        condition.lock(); defer { condition.unlock() }
        wants.full = indices + wants.full.filter { !indices.contains($0) }
        wants.blocking += indices
        defer { for index in indices { if let at = wants.blocking.firstIndex(of: index) { wants.blocking.remove(at: at) } } }
        condition.broadcast()
        while life == .running, indices.contains(where: { made.cards[$0] == nil && made.failures[$0] == nil }) {
            condition.wait()
        }
    }

    /// Blocks until nothing wanted is left to decode (every wanted card and preview is made or
    /// failed): the benchmark waits so, as during auto-advance's interval, before it times frames.
    /// The disk cache's work (the first prune, the cards decoded on a miss) is done too.
    package func waitUntilIdle() {
        condition.lock(); defer { condition.unlock() }
        while life == .running, nextJob() != nil || !busy.isEmpty || (diskCache.map { !made.pruned || $0.hasPendingWrites } ?? false) {
            condition.wait()
        }
    }

    package func takeUpdate() -> Update {
        condition.lock(); defer { condition.unlock() }
        let update = pending
        pending = Update()
        return update
    }

    package func failure(at index: Int) -> ImageError? {
        condition.lock(); defer { condition.unlock() }
        return made.failures[index]?.error
    }

    /// Every card that could not be made, by index.
    package var failedCards: [Int: ImageError] {
        condition.lock(); defer { condition.unlock() }
        return made.failures.mapValues(\.error)
    }

    /// Forgets the failures of files that changed since their decode started (a picture
    /// copied in place was read half-written), so the worker makes them again. Returns those
    /// indices. The files are stat'ed outside the lock.
    @discardableResult
    package func retryChangedFailures() -> [Int] {
        let failed = condition.withLock { made.failures.mapValues(\.file) }
        let changed = failed.filter { FileStamp(path: paths[$0.key]) != $0.value }.map(\.key).sorted()
        guard !changed.isEmpty else { return [] }
        condition.withLock {
            for index in changed { made.failures[index] = nil }
            condition.broadcast()
        }
        return changed
    }

    package var cachedCount: Int {
        condition.lock(); defer { condition.unlock() }
        return made.cards.count
    }

    package var previewCount: Int {
        condition.lock(); defer { condition.unlock() }
        return made.previews.count
    }

    /// What to decode next, under the lock: the full cards someone blocks on; a preview for
    /// each wanted card that has neither; the full cards on screen; the previews just ahead
    /// (cards a page change brings in next, so a slow box's long decodes of off-screen cards
    /// never leave them bare); the other wanted full cards; the rest of the previews. Every
    /// list is already in priority order.
    /// A helper (`helperThreads`) takes only the full cards on screen.
    private func nextJob(forHelper helper: Bool = false) -> (index: Int, preview: Bool)? {
        func open(_ index: Int) -> Bool { made.cards[index] == nil && made.failures[index] == nil && !busy.contains(index) }
        func needsPreview(_ index: Int) -> Bool { open(index) && made.previews[index] == nil && !wants.blocking.contains(index) }
        if let index = wants.blocking.first(where: open) { return (index, false) }
        if helper { return wants.full.first { open($0) && wants.visible.contains($0) }.map { ($0, false) } }
        let previewing = spec.preview != nil
        if previewing, let index = wants.full.first(where: needsPreview) { return (index, true) }
        if let index = wants.full.first(where: { open($0) && wants.visible.contains($0) }) { return (index, false) }
        if previewing, let index = wants.previews.prefix(wants.previewsAhead).first(where: needsPreview) { return (index, true) }
        if let index = wants.full.first(where: open) { return (index, false) }
        if previewing, let index = wants.previews.first(where: needsPreview) { return (index, true) }
        return nil
    }

    private func run(helper: Bool, urgent: Bool) {
        var urgent = urgent
        condition.lock()
        while life == .running {
            guard let (index, previewJob) = nextJob(forHelper: helper) else {
                if urgent { DetachedThread.makeThisThreadBackground(); urgent = false }
                if !helper, diskCacheWork() { continue }
                condition.wait()
                continue
            }
            let fullSpec = spec, wantedFull = wants.full.contains(index), startedIn = generation
            busy.insert(index)
            condition.unlock()
            // The preview of a card wanted in full is made only where it is cheaper than the card.
            let isPreview = previewJob && !(wantedFull && !ImageFormat(path: paths[index]).hasCheapPreview)
            let job = (spec: (isPreview ? fullSpec.preview : nil) ?? fullSpec, generation: startedIn)
            beforeDecode?(index, isPreview)
            // Stamped before reading: a file still being written changes after, and is retried.
            let file = FileStamp(path: paths[index])
            let result = Result { () throws(ImageError) in try makeCard(path: paths[index], spec: job.spec) }
            // A preview's failure is the file's: what it read (for a draft, the first scans) is bad.
            if case .failure(let error) = result { Log.warning("skipping \(paths[index]): \(error)") }
            // Unchanged while it was read: a card's pixels are the stamped file's; a failure is the file's.
            let unchanged = FileStamp(path: paths[index]) == file
            let content = file.flatMap { unchanged ? CardContent(path: paths[index], file: $0, spec: job.spec) : nil }
            condition.lock()
            busy.remove(index)
            if life != .running { break }
            switch result {
            case .success(let card):
                card.content = content
                // A result for an old card size, or for a card scrolled away meanwhile, is dropped.
                if job.generation == generation && isPreview && (wants.full.contains(index) || wants.previews.contains(index)) {
                    card.isPreview = true
                    made.previews[index] = card
                    pending.ready.append(index)
                } else if job.generation == generation && !isPreview && wants.full.contains(index) {
                    made.cards[index] = card
                    pending.ready.append(index)
                }
            case .failure where !unchanged:
                // The file changed while it was read (still being copied in): read it again.
                break
            case .failure(let error):
                made.failures[index] = (error, file)
                // A draft preview reads only a progressive file's first scans, so it can exist
                // for a file whose full decode fails: the skipped card shows nothing, not it.
                made.previews[index] = nil
                pending.failed.append(index)
            }
            condition.broadcast()
            // Under the lock, so `stop()` returning means no further call: the callback
            // queues a delivery to the owner's loop, which must not outlive the owner's say.
            onResult()
        }
        threadsRunning -= 1
        if threadsRunning == 0 { life = .finished }
        condition.broadcast()
        condition.unlock()
    }

    /// With nothing to decode (the lock held), one piece of the disk cache's work: the first
    /// time, entries of files that left the playlist are pruned; then each card decoded on a
    /// miss is written, one per call, so a new want waits for one write at most. Both come
    /// after the cards on screen, not before the first. False when there is nothing to do.
    private func diskCacheWork() -> Bool {
        guard let diskCache, !made.pruned || diskCache.hasPendingWrites else { return false }
        let pruning = !made.pruned
        condition.unlock()
        if pruning { diskCache.prune() } else { _ = diskCache.writeNext() }
        condition.lock()
        made.pruned = true
        condition.broadcast()
        return true
    }

    private func makeCard(path: String, spec: CardSpec) throws(ImageError) -> Card {
        guard let diskCache else { return try ImageDecoder.makeCard(path: path, spec: spec) }
        return try diskCache.card(path: path, spec: spec) { () throws(ImageError) in
            try ImageDecoder.makeCard(path: path, spec: spec)
        }
    }
}
