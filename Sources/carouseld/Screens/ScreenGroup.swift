import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels

/// One carousel and the screens that show it (all of them in mirror and span, one in
/// independent): its `Daemon`, its playlist and settings, and one renderer per screen over
/// image stores shared by screens whose cards have the same size. A finished decode of a card
/// on screen redraws it (the stores' readiness is watched here).
final class ScreenGroup: DaemonDelegate {
    let plan: ScreenPlan.Group
    let daemon: Daemon
    /// Each screen's rotation (its panel's touches are turned with it).
    private let rotations: [Int]
    /// What it shows and how: replaced as a whole by a reload or a daypart switch.
    private var content: Content
    /// One per card scale in use (mirror at two sizes: two).
    private(set) var stores: [Double: ImageStore] = [:]
    private(set) var arrangement: ScreenArrangement?
    private var arranger: Arranger
    private unowned let loop: EventLoop
    /// Cards on disk, shared by every store of the daemon; nil without a cache directory.
    private let cache: CardCache?
    /// Hears what the carousel reports (the runner).
    weak var delegate: ScreenGroupDelegate?

    private struct Content {
        var config: CarouselConfig
        var shell: ShellSettings
        var items: [PlaylistItem]
    }
    var config: CarouselConfig { content.config }
    var shell: ShellSettings { content.shell }
    var items: [PlaylistItem] { content.items }

    init(plan: ScreenPlan.Group, layout: OutputLayout, outputs: [DisplayOutput], rotations: [Int],
         config: CarouselConfig, shell: ShellSettings, items: [PlaylistItem], loop: EventLoop, now: Double,
         cache: CardCache? = nil) throws {
        self.cache = cache
        self.plan = plan; self.rotations = rotations
        content = Content(config: config, shell: shell, items: items); self.loop = loop
        arranger = Arranger(plan: ScreenPlan(layout: layout, screens: [], groups: [plan]), sizes: outputs.map(\.size))
        arrangement = arranger.arrange(outputs.map(\.size))
        let viewport = arrangement?.viewport ?? Size(width: 1920, height: 1080)
        let engine = CarouselEngine(config: config, itemCount: items.count, viewport: viewport, now: now,
                                    itemDurations: items.map(\.duration))
        let placeholder = outputs.map { ScreenView(output: $0, renderer: NoRenderer()) }
        daemon = try Daemon(engine: engine, views: placeholder, loop: loop)
        daemon.delegate = self
        // The daemon laid the engine out for its first screen: lay it out for all of them once,
        // and make the renderers (a screen change does both again).
        daemon.rearrange()
        if stores.isEmpty { rebuildRenderers() }   // no screen lit yet: the default viewport's
    }

    var outputs: [DisplayOutput] { daemon.views.map(\.output) }

    // MARK: - DaemonDelegate

    func viewport(of daemon: Daemon, forScreens sizes: [Size?]) -> Size? {
        arrangement = arranger.arrange(sizes)
        return arrangement?.viewport
    }

    func daemon(_ daemon: Daemon, resizedTo size: Size) {
        rebuildRenderers()
        delegate?.groupResized(self)
    }

    func daemon(_ daemon: Daemon, reported event: CarouselEvent) { delegate?.group(self, reported: event) }

    func daemon(_ daemon: Daemon, firstFrameAt time: Double) { delegate?.group(self, firstFrameAt: time) }

    func daemon(_ daemon: Daemon, leftRestBecause cause: MoveCause, at time: Double) {
        delegate?.group(self, leftRestBecause: cause, at: time)
    }

    /// "HDMI-A-1: " before a log line when there are several carousels; "" for one.
    var prefix: String { plan.name.isEmpty ? "" : "\(plan.name): " }

    var allStores: [ImageStore] { Array(stores.values) }

    /// The screens' transforms (identity while not lit).
    var transforms: [ViewTransform] {
        arrangement?.transforms ?? Array(repeating: .identity, count: outputs.count)
    }

    /// New renderers for the current arrangement; stores at a card scale still in use carry
    /// over with their cards, others are dropped (`cache_mb` is shared between them).
    func rebuildRenderers() {
        let viewport = daemon.engine.viewport
        let scales = Set(transforms.map(\.scale))
        var shared = shell
        shared.media.cacheMB = max(8, shell.media.cacheMB / max(1, scales.count))
        var next: [Double: ImageStore] = [:]
        for scale in scales {
            let scaled = Size(width: viewport.width * scale, height: viewport.height * scale)
            next[scale] = ImageStore(paths: items.map(\.path), config: config, shell: shared, viewport: scaled,
                                     replacing: stores[scale] ?? stores.values.first, cache: cache,
                                     loop: loop) { [weak self] in self?.cardsDecoded($0) }
        }
        stores = next
        let renderers: [FrameRenderer] = transforms.compactMap { view in
            next[view.scale].map { CompositorRenderer(store: $0, config: config, view: view) }
        }
        daemon.replaceRenderers(renderers)
    }

    /// A decoded card that is on screen means a new frame; prefetched neighbours do not.
    /// The stores call it on the loop (`ImageStore`'s `decoded`). Cards off screen, decoded while
    /// the strip rests on overlay planes, are copied ahead by recommitting the resting state.
    func cardsDecoded(_ update: ImageStore.Update) {
        let visible = Set(daemon.engine.layout().cards.map(\.index))
        Log.debug("cards decoded \(update.ready), failed \(update.failed); on screen \(visible.sorted())")
        if !visible.isDisjoint(with: update.ready + update.failed) {
            daemon.setNeedsRedraw()
        } else if !update.ready.isEmpty {
            daemon.offScreenCardsDecoded()
        }
    }

    /// "a4.png: truncated PNG data" for each picture of this carousel whose card failed.
    var failedCards: [String] {
        var failed: [Int: ImageError] = [:]
        for store in stores.values { failed.merge(store.failedCards) { first, _ in first } }
        return failed.sorted { $0.key < $1.key }.filter { items.indices.contains($0.key) }
            .map { "\(items[$0.key].name): \($0.value)" }
    }

    /// Makes again the cards whose file changed since they failed (a picture copied in place
    /// was read half-written); the finished decode redraws them.
    func retryChangedFailures() {
        for store in stores.values {
            let retried = store.retryChangedFailures()
            if !retried.isEmpty { Log.info("\(prefix)trying again: \(retried.map { items[$0].name }.joined(separator: ", "))") }
        }
    }

    /// A reloaded config: the engine keeps the picture on screen (`keepIndex`), the renderers
    /// take over the decoded cards. The strip rests afterwards, on the kept picture or the
    /// first; if that is another picture, the one shown before ended for `cause`.
    func swapIn(config: CarouselConfig, shell: ShellSettings, items: [PlaylistItem], keepIndex: Int?, now: Double,
                cause: MoveCause) {
        content = Content(config: config, shell: shell, items: items)
        daemon.modifyEngine {
            $0.reconfigure(config, itemCount: items.count, itemDurations: items.map(\.duration), keepIndex: keepIndex, now: now)
        }
        rebuildRenderers()
        delegate?.group(self, restsAfterSwapBecause: cause, at: now)
    }

    /// The playlist a daypart switch is heading for, once the bridge's page change rests.
    private var switchingTo: [PlaylistItem]?

    /// A new playlist at a daypart boundary, with a normal page animation and never a blank
    /// frame: the strip becomes [the picture on screen] + the new playlist, pages once, and at
    /// rest becomes the new playlist alone (the same picture, so nothing moves).
    func switchPlaylist(to newItems: [PlaylistItem], now: Double) {
        let index = daemon.engine.selectedIndex
        guard items.indices.contains(index), !newItems.isEmpty else {
            return swapIn(config: config, shell: shell, items: newItems, keepIndex: nil, now: now, cause: .daypart)
        }
        swapIn(config: config, shell: shell, items: [items[index]] + newItems, keepIndex: 0, now: now, cause: .daypart)
        switchingTo = newItems
        daemon.updateEngine(cause: .daypart) { $0.page(by: 1, now: now) }
    }

    /// The strip came to rest: a daypart switch in progress ends.
    func settled(now: Double) {
        guard let next = switchingTo else { return }
        switchingTo = nil
        swapIn(config: config, shell: shell, items: next, keepIndex: 0, now: now, cause: .daypart)
    }

    /// Where a touch on each of this group's screens goes (`group`: this group's index).
    func touchTargets(group: Int) -> [TouchTarget] {
        outputs.indices.map { i in
            TouchTarget(group: group, screen: outputs[i].size ?? daemon.engine.viewport, rotation: rotations[i],
                        view: transforms[i])
        }
    }

    /// "showing 3/12 beach.jpg" for this carousel.
    var showing: String {
        let index = daemon.engine.selectedIndex
        return items.indices.contains(index)
            ? StatusLine.showing(index: index, count: items.count, name: items[index].name) : "no images"
    }
}

/// What a carousel tells the runner.
protocol ScreenGroupDelegate: AnyObject {
    func group(_ group: ScreenGroup, reported event: CarouselEvent)
    func group(_ group: ScreenGroup, firstFrameAt time: Double)
    /// Its strip started moving, or was cut to another picture, at `time` (engine clock).
    func group(_ group: ScreenGroup, leftRestBecause cause: MoveCause, at time: Double)
    /// A new playlist or config is in (`swapIn`): the strip rests on what it shows now.
    func group(_ group: ScreenGroup, restsAfterSwapBecause cause: MoveCause, at time: Double)
    /// Its screens changed size: touches map anew.
    func groupResized(_ group: ScreenGroup)
}

/// Lays a carousel out on its screens' sizes. A spanned screen that goes dark keeps its place:
/// the others go on showing their part, with no jump. A mirror is laid out for the screens
/// that are lit.
private struct Arranger {
    let plan: ScreenPlan
    private var lastSizes: [Size?]

    init(plan: ScreenPlan, sizes: [Size?]) { self.plan = plan; lastSizes = sizes }

    mutating func arrange(_ sizes: [Size?]) -> ScreenArrangement? {
        lastSizes = zip(sizes, lastSizes).map { $0 ?? $1 }
        return plan.arrangement(of: plan.groups[0], sizes: plan.layout == .span ? lastSizes : sizes)
    }
}

/// Draws nothing: a screen's renderer before the group made the real ones.
private final class NoRenderer: FrameRenderer {
    func draw(_ layout: FrameLayout, into target: PixelBuffer) {}
    func invalidate() {}
}
