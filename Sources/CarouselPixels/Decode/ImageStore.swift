import CarouselCore
import CarouselEngine
import CLinux
import Glibc

/// Pre-scaled cards for the playlist, decoded on a worker thread, never on the event loop.
///
/// - The compositor asks `cards(for:)` each frame; that also tells the store what is on
///   screen. It keeps the visible cards plus `neighbours` each side of the selected one, and
///   while the strip rests also the next card forward (auto-advance's direction), so a normal
///   advance never shows an empty card; at most `cacheMB` of them.
/// - Finished decodes are handed to the event loop given at init (`execute`): `decoded(update)`
///   runs there, and the daemon redraws if something it shows arrived (a preview, or the full
///   card that replaces it). Until the preview is there the compositor draws the background
///   colour. Without a loop (render, benchmarks, tests) `drainReady()` says what finished.
/// - Previews (1/8 of the card, `CardSpec.preview`) are decoded before full cards and kept
///   for a wider window than the full cards (`previewShare` of `cacheMB`), so a fling or a
///   slow decode shows a blurred card in its place, never the background colour.
/// - Decode order: the selected card, then the side the strip moves to, then the rest.
/// - `waitUntilLoaded` blocks until given cards are decoded, for `render` and tests; it uses
///   the same worker and decode path.
package final class ImageStore: CardSource, @unchecked Sendable {
    package typealias Update = DecodeWorker.Update

    package let paths: [String]
    /// Hands finished decodes to the loop; nil without one.
    private let delivery: Delivery?
    package let neighbours: Int
    private let cacheBytes: Int
    private let baseSpec: CardSpec
    private let worker: DecodeWorker
    /// Cards on disk, shared by every store of the daemon; told which paths this store shows.
    private let diskCache: (any CardCaching)?
    /// The way the strip last moved (from the layouts `cards(for:)` sees).
    private var motion = MotionDirection()
    /// The last preview window and what it was made for: recomputed only when those change,
    /// not every frame (with a large cache_mb it may hold a thousand indices).
    private var previewMemo: (key: [Int], window: [Int])?
    /// The last ask the worker was given and what it was made from: most frames of a page
    /// change show the same cards as the frame before, so they only look their cards up.
    private var lastAsk: (key: AskKey, wanted: [Int])?

    /// What the worker's ask is a function of (paths, neighbours and the budget are fixed).
    private struct AskKey: Equatable {
        let visible: [Int]
        let selected: Int
        let atRest: Bool
        let direction: Int
        let spec: CardSpec
    }

    /// The part of `cacheMB` for previews: 2 MB of the default 64, 25 previews of 1536x864
    /// cards: the selected card's and a dozen each side.
    package static let previewShare = 32
    /// One neighbour each side of the selected card. With the default layout those neighbours
    /// already peek in at the screen edges; the next card forward is prefetched while the strip
    /// rests (and otherwise from the first frame of a page change, ~0.3 s before it scrolls in).
    /// A second neighbour each side would keep two more cards (5.3 MB each at 1080p) resident,
    /// and a decode (a 4000x3000 photo: 4.3 MB of file, 12 MB at half size) would run beside
    /// four cached cards instead of three: 6 MB more at the peak.
    package static let defaultNeighbours = 1

    /// `replacing`: the store this one replaces on a reload; its decoded cards come along.
    /// `cache`: cards on disk; entries of paths in no store's playlist are pruned when it is first idle.
    /// `helperThreads`: threads beside the worker's own that decode only the cards on screen.
    /// `urgentStart`: its decodes run at the loop's priority until the worker is first idle
    /// (the daemon's first stores: the first frame waits for them).
    /// `beforeDecode`: a test hook, run on the worker thread before each decode.
    /// `loop`: where `decoded(update)` runs once decodes finished (several at once in one update).
    package init(paths: [String], spec: CardSpec, cacheMB: Int = 64, neighbours: Int = ImageStore.defaultNeighbours,
         replacing previous: ImageStore? = nil, cache: (any CardCaching)? = nil, helperThreads: Int = 0,
         urgentStart: Bool = false, beforeDecode: (@Sendable (Int, Bool) -> Void)? = nil,
         loop: EventLoop? = nil, decoded: @escaping (Update) -> Void = { _ in }) {
        self.paths = paths
        self.baseSpec = spec
        self.cacheBytes = cacheMB * 1024 * 1024
        self.neighbours = neighbours
        let delivery = loop.map { Delivery(executor: $0.executor, handler: decoded) }
        self.delivery = delivery
        diskCache = cache
        worker = DecodeWorker(paths: paths, spec: spec, carried: previous?.worker.carry(), diskCache: cache,
                              helperThreads: helperThreads, beforeDecode: beforeDecode) {
            delivery?.decodeFinished()
        }
        delivery?.store = self
        cache?.use(paths, by: ObjectIdentifier(self))
        // The replaced store's playlist is no longer shown: its files may be pruned now.
        if let previous { cache?.release(ObjectIdentifier(previous)) }
        worker.start(urgentUntilIdle: urgentStart)
    }

    /// Stops the decode threads and waits until they have exited (a decode in flight ends
    /// first): for a command about to exit, whose threads must not run on while the process's
    /// exit handlers tear down what they use. The daemon never waits so (`deinit` does not).
    package func finish() {
        worker.stop()
        worker.waitUntilFinished()
    }

    /// Returns at once: a decode in flight finishes on the worker and is dropped.
    deinit {
        worker.stop()
        diskCache?.release(ObjectIdentifier(self))
    }

    /// The full card of each visible index, else its preview (`Card.isPreview`).
    package func cards(for layout: FrameLayout) -> [Int: Card] {
        let direction = motion.update(layout)
        return want(layout, direction: direction).shown
    }

    /// Asks for `layout`'s cards, as a frame of it would, and tells whether each visible one is
    /// its full card or has failed (nothing would be drawn from a preview).
    package func hasFullCards(for layout: FrameLayout) -> Bool {
        let shown = cards(for: layout)
        return visibleIndices(layout).allSatisfy { index in
            shown[index].map { !$0.isPreview } ?? (worker.failure(at: index) != nil)
        }
    }

    /// The full cards decoded for `layout`'s visible indices, without asking for anything: a
    /// layout the strip may show next (its neighbour pages), not the one on screen.
    package func decodedCards(for layout: FrameLayout) -> [Card] {
        worker.decoded(visibleIndices(layout))
    }

    /// Tells the worker what `layout` needs; returns the full-card window and the visible cards.
    private func want(_ layout: FrameLayout, direction: Int) -> (wanted: [Int], shown: [Int: Card]) {
        let spec = spec(for: layout)
        let visible = visibleIndices(layout)
        let key = AskKey(visible: visible, selected: layout.selectedIndex, atRest: !layout.isMoving, direction: direction, spec: spec)
        if let lastAsk, lastAsk.key == key { return (lastAsk.wanted, worker.shown(visible)) }
        let wanted = window(visible: visible, selected: key.selected, spec: spec, atRest: key.atRest, direction: direction)
        lastAsk = (key, wanted)
        let previewKey = [layout.selectedIndex, direction, spec.width, spec.height]
        let previews = previewMemo?.key == previewKey ? previewMemo?.window ?? []
            : previewWindow(selected: layout.selectedIndex, spec: spec, direction: direction)
        previewMemo = (previewKey, previews)
        return (wanted, worker.want(wanted, previews: previews, ahead: previewsAhead, spec: spec, visible: visible))
    }

    /// Which indices finished (ready or failed) since the last call (or delivery to the loop).
    package func drainReady() -> Update { worker.takeUpdate() }

    /// Blocks until the layout's visible cards are decoded (or failed).
    package func waitUntilLoaded(for layout: FrameLayout) {
        _ = cards(for: layout)
        waitForWorker(visibleIndices(layout))
    }

    /// Blocks until everything the store keeps for `layout` (the visible cards and what it
    /// prefetches) is decoded or failed: a page change after a rest, for the benchmark.
    /// Previews of the wider window too.
    package func waitUntilPrefetched(for layout: FrameLayout) {
        let wanted = want(layout, direction: motion.value).wanted
        waitForWorker(wanted)
        worker.waitUntilIdle()
    }

    /// Blocks until the worker has nothing left to decode for what it was last asked (tests).
    package func waitUntilIdle() { worker.waitUntilIdle() }

    /// Blocks until `indices` are decoded (or failed) at the current card size.
    package func waitUntilLoaded(indices: [Int]) {
        waitForWorker(indices.filter { paths.indices.contains($0) })
    }

    /// Blocks until `indices` are decoded (or failed). The wait puts them first in the worker's
    /// wants, so the next frame asks anew, as it did before the last ask was kept, and that ask
    /// puts the window's order back.
    private func waitForWorker(_ indices: [Int]) {
        worker.waitUntilLoaded(indices)
        lastAsk = nil
    }

    package func failure(at index: Int) -> ImageError? { worker.failure(at: index) }

    /// Every card that could not be made, by playlist index.
    package var failedCards: [Int: ImageError] { worker.failedCards }

    /// Makes again the cards whose file changed since they failed; returns their indices.
    @discardableResult
    package func retryChangedFailures() -> [Int] { worker.retryChangedFailures() }

    package var cachedCount: Int { worker.cachedCount }
    /// Times a frame's ask woke the decode thread (tests).
    package var workerWakes: Int { worker.wakeCount }
    package var previewCount: Int { worker.previewCount }

    // MARK: - Window

    /// The card look for a layout: its card size (all cards share it), the rest from config.
    private func spec(for layout: FrameLayout) -> CardSpec {
        guard let card = layout.cards.first else { return baseSpec }
        var spec = baseSpec
        spec.width = max(1, Int(card.width.rounded()))
        spec.height = max(1, Int(card.height.rounded()))
        return spec
    }

    /// Visible indices, the centre-most (drawn last) first.
    private func visibleIndices(_ layout: FrameLayout) -> [Int] {
        var visible: [Int] = []
        visible.reserveCapacity(layout.cards.count)
        for card in layout.cards.reversed() where paths.indices.contains(card.index) && !visible.contains(card.index) {
            visible.append(card.index)
        }
        return visible
    }

    /// What to keep and decode: the visible cards, then neighbours of the selected card by
    /// distance (the playlist loops), then at rest the next card forward not kept yet; within
    /// the cache budget. The card behind is dropped when it leaves the screen, so the forward
    /// one decodes beside no more cards than a page change's decode does. Returned in decode
    /// order (`DecodeOrder`): the selected card, then the side of `direction`, then the rest.
    package func window(visible: [Int], selected: Int, spec: CardSpec, atRest: Bool = false, direction: Int = 1) -> [Int] {
        var order = visible
        let count = paths.count
        func wrapped(_ index: Int) -> Int { ((index % count) + count) % count }
        if count > 0 {
            for distance in 1...max(1, neighbours) {
                for index in [selected + distance, selected - distance] where !order.contains(wrapped(index)) {
                    order.append(wrapped(index))
                }
            }
            if atRest, let ahead = (1...count).lazy.map({ wrapped(selected + $0) }).first(where: { !order.contains($0) }) {
                order.append(ahead)
            }
        }
        let budget = max(visible.count, cacheBytes / max(1, spec.byteCount))
        return DecodeOrder(count: count, selected: selected, direction: direction).sorted(Array(order.prefix(budget)))
    }

    /// Previews decoded before the off-screen full cards: two beyond the neighbours each side,
    /// what the next page change can bring in (see `previewWindow`).
    package var previewsAhead: Int { 2 * (neighbours + 2) + 1 }

    /// The indices whose previews are kept: the nearest to the selected card, as many as fit in
    /// `cacheMB / previewShare` (at least `previewsAhead`); the `previewsAhead` nearest first,
    /// each part in decode order. Empty for cards too small to have previews.
    package func previewWindow(selected: Int, spec: CardSpec, direction: Int = 1) -> [Int] {
        guard let preview = spec.preview, !paths.isEmpty else { return [] }
        let fit = cacheBytes / Self.previewShare / max(1, preview.byteCount)
        let order = DecodeOrder(count: paths.count, selected: selected, direction: direction)
        let ahead = order.nearest(previewsAhead)
        return ahead + order.nearest(max(fit, previewsAhead)).filter { !ahead.contains($0) }
    }
}

extension ImageStore {
    /// Takes finished decodes from the worker thread to the loop: the first decode of a burst
    /// queues one delivery with the loop's `execute`, and the decodes that finish before it runs
    /// ride along in the same update (the worker keeps them until `drainReady`).
    fileprivate final class Delivery: @unchecked Sendable {
        private let executor: LoopInbox
        private let handler: (Update) -> Void  // only on the loop
        private let lock = ConditionLock()
        private var queued = false  // guarded by lock
        /// Read only on the loop, where the store is made and dropped: a delivery queued for a
        /// store dropped since finds nil.
        weak var store: ImageStore?

        init(executor: LoopInbox, handler: @escaping (Update) -> Void) {
            self.executor = executor; self.handler = handler
        }

        /// On the worker thread, after each decode.
        func decodeFinished() {
            let first = lock.withLock {
                defer { queued = true }
                return !queued
            }
            guard first else { return }
            executor.execute { [self] in
                // Cleared before the update is taken: a decode finishing after the take queues anew.
                lock.withLock { queued = false }
                guard let store else { return }
                let update = store.drainReady()
                if !update.isEmpty { handler(update) }
            }
        }
    }
}
