import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels

/// What the carousel shows: its playlist and settings, the arrangement on its screens, and the
/// renderers over their image stores. A finished decode of a card on screen redraws it.
extension Carousel {
    var allStores: [ImageStore] { Array(rendering.stores.values) }

    /// The screens' transforms (identity while not lit).
    var transforms: [ViewTransform] {
        arranger.current?.transforms ?? Array(repeating: .identity, count: screens.count)
    }

    /// Lays the engine out for the screens' sizes again (a screen appeared or changed mode),
    /// with new renderers; touches then map anew.
    func rearrange() {
        arranger.arrange(screens.map(\.output.size))
        guard let size = arranger.current?.viewport else { return }
        engine.resize(size)
        rebuildRenderers()
        events.emit(.resized(self))
    }

    /// New renderers for the current arrangement; stores at a card scale still in use carry
    /// over with their cards, others are dropped (`cache_mb` is shared between them).
    func rebuildRenderers() {
        let viewport = engine.viewport
        let scales = Set(transforms.map(\.scale))
        var shared = shell
        shared.media.cacheMB = max(8, shell.media.cacheMB / max(1, scales.count))
        var next: [Double: ImageStore] = [:]
        for scale in scales {
            let scaled = Size(width: viewport.width * scale, height: viewport.height * scale)
            next[scale] = ImageStore(paths: items.map(\.path), config: config, shell: shared, viewport: scaled,
                                     replacing: rendering.stores[scale] ?? rendering.stores.values.first, cache: rendering.cache,
                                     helperThreads: DecodeWorker.helpersForThisMachine,
                                     urgentStart: startup.firstFrame == nil,
                                     loop: loop) { [weak self] in self?.cardsDecoded($0) }
        }
        rendering.stores = next
        for (index, view) in transforms.enumerated() where screens.indices.contains(index) {
            guard let store = next[view.scale] else { continue }
            screens[index].renderer = rendering.makeRenderer(store, config, view)
            screens[index].newLadder()
        }
        setNeedsRedraw()
    }

    /// A decoded card that is on screen means a new frame; prefetched neighbours do not.
    /// The stores call it on the loop (`ImageStore`'s `decoded`). Cards off screen, decoded while
    /// the strip rests with cards on overlay planes, are copied ahead by committing the resting
    /// state again: it moves nothing, the background stays, and the output copies the next page
    /// change's cards into plane buffers now, not in its frames.
    func cardsDecoded(_ update: ImageStore.Update) {
        let visible = Set(engine.layout().cards.map(\.index))
        Log.debug("cards decoded \(update.ready), failed \(update.failed); on screen \(visible.sorted())")
        if startup.firstDecode == nil { startup.firstDecode = loop.time.now() }
        if !visible.isDisjoint(with: update.ready + update.failed) { return setNeedsRedraw() }
        guard !update.ready.isEmpty, !engine.isMoving else { return }
        // At rest on planes the next cards are readied; a window waits for its cards.
        let waiting = screens.indices.filter { screens[$0].output.ladder.waitsForCards }
        guard !waiting.isEmpty else { return }
        for index in waiting { screens[index].redraw = true }
        scheduleTick()
    }

    /// "a4.png: truncated PNG data" for each picture of this carousel whose card failed.
    var failedCards: [String] {
        var failed: [Int: ImageError] = [:]
        for store in rendering.stores.values { failed.merge(store.failedCards) { first, _ in first } }
        return failed.sorted { $0.key < $1.key }.filter { items.indices.contains($0.key) }
            .map { "\(items[$0.key].name): \($0.value)" }
    }

    /// Makes again the cards whose file changed since they failed (a picture copied in place
    /// was read half-written); the finished decode redraws them.
    func retryChangedFailures() {
        for store in rendering.stores.values {
            let retried = store.retryChangedFailures()
            if !retried.isEmpty { Log.info("\(prefix)trying again: \(retried.map { items[$0].name }.joined(separator: ", "))") }
        }
    }

    /// A reloaded config: the engine keeps the picture on screen (`keepIndex`), the renderers
    /// take over the decoded cards. The strip rests afterwards, on the kept picture or the
    /// first; if that is another picture, the one shown before ended for `cause`.
    /// `configDigest`: the new config file's; nil keeps the one before (a daypart switch).
    func swapIn(config: CarouselConfig, shell: ShellSettings, items: [PlaylistItem], keepIndex: Int?, now: Double,
                cause: MoveCause, configDigest: UInt64? = nil) {
        content = Content(config: config, shell: shell, items: items, configDigest: configDigest ?? content.configDigest)
        // The start frame of this config is kept when the strip rests on it.
        for index in screens.indices { screens[index].keepsStartFrame = true }
        engine.reconfigure(config, itemCount: items.count, itemDurations: items.map(\.duration), keepIndex: keepIndex, now: now)
        rebuildRenderers()
        // Said with the picture it rests on now: a daypart's bridge pages on at once.
        if !engine.isMoving { events.emit(.restsAfterSwap(self, index: engine.selectedIndex, cause, at: now)) }
    }

    /// A new playlist at a daypart boundary, with a normal page animation and never a blank
    /// frame: the strip becomes [the picture on screen] + the new playlist, pages once, and at
    /// rest becomes the new playlist alone (the same picture, so nothing moves).
    func switchPlaylist(to newItems: [PlaylistItem], now: Double) {
        let index = engine.selectedIndex
        guard items.indices.contains(index), !newItems.isEmpty else {
            return swapIn(config: config, shell: shell, items: newItems, keepIndex: nil, now: now, cause: .daypart)
        }
        swapIn(config: config, shell: shell, items: [items[index]] + newItems, keepIndex: 0, now: now, cause: .daypart)
        switchingTo = newItems
        updateEngine(cause: .daypart) { $0.page(by: 1, now: now) }
    }

    /// The strip came to rest: a daypart switch in progress ends.
    func settled(now: Double) {
        guard let next = switchingTo else { return }
        switchingTo = nil
        swapIn(config: config, shell: shell, items: next, keepIndex: 0, now: now, cause: .daypart)
    }

    /// Where a touch on each of this carousel's screens goes (`index`: this carousel's).
    func touchTargets(carousel index: Int) -> [TouchTarget] {
        screens.indices.map { i in
            TouchTarget(carousel: index, screen: screens[i].output.size ?? engine.viewport, rotation: screens[i].rotation,
                        view: transforms[i])
        }
    }

    /// "showing 3/12 beach.jpg" for this carousel.
    var showing: String {
        let index = engine.selectedIndex
        return items.indices.contains(index)
            ? StatusLine.showing(index: index, count: items.count, name: items[index].name) : "no images"
    }
}

/// Lays a carousel out on its screens' sizes. A spanned screen that goes dark keeps its place:
/// the others go on showing their part, with no jump. A mirror is laid out for the screens
/// that are lit.
struct Arranger {
    let plan: ScreenPlan
    private var lastSizes: [Size?]
    /// The arrangement of the last `arrange`; nil while no screen has a size.
    private(set) var current: ScreenArrangement?

    init(plan: ScreenPlan, sizes: [Size?]) {
        self.plan = plan; lastSizes = sizes
        arrange(sizes)
    }

    mutating func arrange(_ sizes: [Size?]) {
        lastSizes = zip(sizes, lastSizes).map { $0 ?? $1 }
        current = plan.arrangement(of: plan.carousels[0], sizes: plan.layout == .span ? lastSizes : sizes)
    }
}
