/// The carousel as a pure state machine: touch frames and time in, layouts and events out.
/// It has no clock, no file and no thread; `now` is always passed in (seconds, monotonic).
///
/// SKELETON: the public API is fixed; the internals are filled in by the engine issue.
public struct CarouselEngine: Sendable {
    public private(set) var config: CarouselConfig
    public private(set) var itemCount: Int
    public private(set) var viewport: Size
    /// Per-item auto-advance interval overrides (playlist #EXTINF); nil entries use `config.interval`.
    public private(set) var itemDurations: [Double?]
    public private(set) var selectedIndex: Int = 0
    public private(set) var now: Double

    public init(config: CarouselConfig, itemCount: Int, viewport: Size, now: Double,
                startIndex: Int = 0, itemDurations: [Double?] = []) {
        self.config = config; self.itemCount = max(0, itemCount); self.viewport = viewport
        self.now = now; self.itemDurations = itemDurations
        self.selectedIndex = itemCount > 0 ? min(max(0, startIndex), itemCount - 1) : 0
    }

    /// True while a finger drags the strip or the spring runs.
    public var isMoving: Bool { false }

    /// Feeds one touch frame (its `time` becomes `now`).
    public mutating func handle(_ frame: TouchFrame) -> [CarouselEvent] { now = frame.time; return [] }

    /// Advances time: runs the spring, settles, re-centres the loop, fires auto-advance.
    public mutating func update(now: Double) -> [CarouselEvent] { self.now = now; return [] }

    /// Pages by `delta` pages with the spring (keyboard, auto-advance).
    public mutating func page(by delta: Int, now: Double) -> [CarouselEvent] { self.now = now; return [] }

    /// Cancels every touch (device removed): the strip springs back with zero velocity.
    public mutating func cancelTouches(now: Double) -> [CarouselEvent] { self.now = now; return [] }

    /// Swaps config and playlist. `keepIndex` is the new index of the picture on screen, if it is still there.
    public mutating func reconfigure(_ config: CarouselConfig, itemCount: Int, itemDurations: [Double?] = [],
                                     keepIndex: Int?, now: Double) {
        self.config = config; self.itemCount = itemCount; self.itemDurations = itemDurations; self.now = now
        selectedIndex = itemCount > 0 ? min(max(0, keepIndex ?? 0), itemCount - 1) : 0
    }

    public mutating func resize(_ viewport: Size) { self.viewport = viewport }

    /// When the shell must call `update` next although nothing moves (the auto-advance deadline);
    /// nil means sleep until input. While moving, the shell updates every frame instead.
    public var nextDeadline: Double? { nil }

    /// The layout at `now`.
    public func layout() -> FrameLayout {
        let w = config.cardWidth.resolve(in: viewport.width), h = config.cardHeight.resolve(in: viewport.height)
        let cards = itemCount == 0 ? [] : [CardLayout(index: selectedIndex, x: (viewport.width - w) / 2,
                                                      y: (viewport.height - h) / 2, width: w, height: h,
                                                      scale: config.centerScale, opacity: config.centerOpacity)]
        let pages = (itemCount + config.cardsPerPage - 1) / config.cardsPerPage
        return FrameLayout(viewport: viewport, cards: cards, selectedIndex: selectedIndex, itemCount: itemCount,
                           pageCount: pages, selectedPage: selectedIndex / config.cardsPerPage, isMoving: false)
    }
}
