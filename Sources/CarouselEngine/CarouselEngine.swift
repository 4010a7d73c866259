/// The carousel as a pure state machine: touch frames and time in, layouts and events out.
/// It has no clock, no file and no thread; `now` is always passed in (seconds, monotonic).
/// Time never runs backwards inside the engine: an earlier `now` is treated as the latest one.
///
/// Internally the strip position is in card steps (see `Strip`); `CardLayout.x` is in pixels.
public struct CarouselEngine: Sendable {
    public private(set) var config: CarouselConfig
    public private(set) var itemCount: Int
    public private(set) var viewport: Size
    /// Per-item auto-advance interval overrides (playlist #EXTINF); nil entries use `config.interval`.
    public var itemDurations: [Double?] { autoAdvance.itemDurations }
    public private(set) var now: Double

    /// What config, item count and viewport make: rebuilt together when they change.
    var model: Model
    /// The strip position whenever no animation runs (resting, held or dragged).
    var heldPosition: Double
    /// The page the strip rests on (always in the real copy when resting).
    var page: Int
    var animation: SpringAnimation?
    /// A crossfade in progress (`transition = "fade"`); never at the same time as `animation`.
    var fade: PageFade?
    var recognizer: GestureRecognizer
    var gesture: ActiveGesture?
    var autoAdvance: AutoAdvance
    /// Auto-advance held (control socket `pause`, or a shell that pages by the wall clock).
    public var isPaused: Bool { autoAdvance.isPaused }

    /// What the engine remembers about the driving finger's gesture.
    struct ActiveGesture: Sendable {
        var startPosition: Double
        /// Page the gesture began on; the release is capped at `max_pages_per_gesture` from it.
        var startPage: Int
        /// The touch caught a moving strip, so it is never a tap.
        var caught: Bool
    }

    public init(config: CarouselConfig, itemCount: Int, viewport: Size, now: Double,
                startIndex: Int = 0, itemDurations: [Double?] = []) {
        self.config = config; self.itemCount = max(0, itemCount); self.viewport = viewport
        self.now = now
        model = Model(config: config, itemCount: itemCount, viewport: viewport)
        page = model.strip.realPage(containingItem: startIndex)
        heldPosition = model.strip.anchor(ofPage: page)
        recognizer = GestureRecognizer(touchSlop: config.gesture.touchSlop, tapTimeout: config.gesture.tapTimeout)
        autoAdvance = AutoAdvance(interval: config.interval, itemDurations: itemDurations, restSince: now)
    }

    /// First playlist index of the selected page: the target while the spring runs or a fade
    /// shows, the nearest page while dragging, the resting page otherwise.
    public var selectedIndex: Int {
        guard model.strip.pageCount > 0 else { return 0 }
        let shown: Int
        if let a = animation { shown = a.targetPage }
        else if let fade { shown = fade.toPage }
        else if recognizer.isDragging { shown = model.strip.nearestPage(heldPosition) }
        else { shown = page }
        return model.strip.firstItem(ofPage: shown)
    }

    /// True while a finger drags the strip or the spring runs.
    /// True while any finger is on the screen (driving or not).
    public var hasFingersDown: Bool { recognizer.contactsDown > 0 }

    public var isMoving: Bool { animation != nil || fade != nil || (itemCount > 0 && recognizer.isDragging) }

    /// Feeds one touch frame (its `time` becomes `now`).
    public mutating func handle(_ frame: TouchFrame) -> [CarouselEvent] {
        var events = advance(to: frame.time)
        // The input's count of contacts as it stood at each sample of the frame, so that what a
        // sample sets off (a lift that rests) sees the fingers still down after it.
        var contactsDown = frame.contactsBefore
        for sample in frame.samples {
            // Any finger, driving or not, stops the slideshow from fighting the hand; a fade
            // under it ends on its page at once (the finger then drags that page).
            if sample.phase == .down { autoAdvance.cancel(); finishFade(&events) }
            contactsDown += sample.phase == .down ? 1 : sample.phase == .move ? 0 : -1
            recognizer.contactsDown = max(0, contactsDown)
            for action in recognizer.feed(sample, time: now) { apply(action, &events) }
        }
        recognizer.contactsDown = frame.contactsDown
        restartCountdownIfIdle()
        return events
    }

    /// Advances time: runs the spring, settles, re-centres the loop, fires auto-advance.
    public mutating func update(now: Double) -> [CarouselEvent] {
        let events = advance(to: now)
        return events
    }

    /// Pages by `delta` pages with the configured transition (keyboard, ctl, a daypart switch).
    /// Ignored while a finger drives the strip, and when there is only one page.
    public mutating func page(by delta: Int, now: Double) -> [CarouselEvent] {
        var events = advance(to: now)
        if model.strip.loops, delta != 0, !recognizer.isDriving {
            change(toPage: (animation?.targetPage ?? fade?.toPage ?? page) + delta, at: self.now, &events)
        }
        return events
    }

    /// Shows the page holding playlist item `index`: with the spring along the shorter way round
    /// the loop, or at once (`animated: false`: a cut, reported as settled). Ignored while a
    /// finger drives the strip.
    public mutating func show(item index: Int, animated: Bool, now: Double) -> [CarouselEvent] {
        var events = advance(to: now)
        guard model.strip.pageCount > 0, !recognizer.isDriving else { return events }
        let from = animation?.targetPage ?? fade?.toPage ?? page
        let wanted = model.strip.realPage(containingItem: floorMod(index, max(1, itemCount)))
        let count = model.strip.pageCount
        // The shortest signed distance round the loop, so item 0 after the last is one step on.
        let delta = floorMod(wanted - from + count / 2, count) - count / 2
        if animated {
            if delta != 0 { change(toPage: from + delta, at: self.now, &events) }
        } else if animation != nil || fade != nil || page != wanted {
            animation = nil
            fade = nil
            rest(on: wanted)
            events.append(.settled(time: self.now, index: selectedIndex))
        }
        return events
    }

    /// Holds auto-advance (`true`) or lets it run again, with a full interval from `now`.
    public mutating func setPaused(_ paused: Bool, now: Double) {
        _ = advance(to: now)
        autoAdvance.isPaused = paused
        if !paused {
            autoAdvance.cancel()
            restartCountdownIfIdle()
        }
    }

    /// Seconds a one-page change takes to come to rest: the spring's (within 0.5 px, as the
    /// engine settles), the fade's, or none for a cut. A page change meant to end at a given
    /// instant starts this much earlier.
    public var pageSettleDuration: Double {
        switch config.transition.style {
        case .fade: return config.transition.fadeDuration
        case .cut: return 0
        case .slide: break
        }
        let animation = SpringAnimation(spring: model.spring, startTime: 0, startPosition: 0, startVelocity: 0,
                                        target: 1, targetPage: 1)
        var t = 0.0
        while t < 30 && !animation.isSettled(at: t, step: model.geometry.step) { t += 1.0 / 240 }
        return t
    }

    /// Cancels every touch (device removed): the strip springs back with zero velocity.
    public mutating func cancelTouches(now: Double) -> [CarouselEvent] {
        var events = advance(to: now)
        for action in recognizer.cancelAll() { apply(action, &events) }
        restartCountdownIfIdle()
        return events
    }

    /// Swaps config and playlist. `keepIndex` is the new index of the picture on screen, if it is
    /// still there. Any animation stops on that picture, the current gesture ends (fingers still
    /// down are ignored until all lift) and the auto-advance interval restarts from `now`.
    public mutating func reconfigure(_ config: CarouselConfig, itemCount: Int, itemDurations: [Double?] = [],
                                     keepIndex: Int?, now: Double) {
        self.now = max(self.now, now)
        self.config = config; self.itemCount = max(0, itemCount)
        model = Model(config: config, itemCount: itemCount, viewport: viewport)
        recognizer.touchSlop = config.gesture.touchSlop
        recognizer.tapTimeout = config.gesture.tapTimeout
        recognizer.releaseDriver()
        gesture = nil
        animation = nil
        fade = nil
        page = model.strip.realPage(containingItem: keepIndex ?? 0)
        heldPosition = model.strip.anchor(ofPage: page)
        autoAdvance = AutoAdvance(interval: config.interval, itemDurations: itemDurations, restSince: nil,
                                  isPaused: autoAdvance.isPaused)
        restartCountdownIfIdle()
    }

    public mutating func resize(_ viewport: Size) {
        self.viewport = viewport
        model.geometry = LayoutGeometry(config: config, viewport: viewport)
    }

    /// When the shell must call `update` next although nothing moves: the auto-advance deadline,
    /// an absolute time on the same clock as `now`. It may already have passed (update at once).
    /// nil while moving or touched, when auto-advance is off, or with a single page.
    public var nextDeadline: Double? {
        guard model.strip.loops, !isPaused, animation == nil, fade == nil, recognizer.contactsDown == 0 else { return nil }
        return autoAdvance.deadline(showing: selectedIndex)
    }

    /// The layout at `now`: during a fade, the page faded from and over it the page faded to.
    public func layout() -> FrameLayout {
        guard let fade else { return layout(atPosition: state().position) }
        var frame = layout(atPosition: model.strip.anchor(ofPage: fade.fromPage))
        let opacity = fade.progress(at: now)
        guard opacity > 0 else { return frame }
        let incoming = model.geometry.cards(on: model.strip, at: model.strip.anchor(ofPage: fade.toPage))
        // Fully faded in, the page faded to alone: the last frame equals that page at rest.
        if opacity >= 1 { frame.cards = incoming; return frame }
        frame.cards += incoming.map { card in
            var card = card
            card.opacity *= opacity
            return card
        }
        return frame
    }

    /// The layout with the strip at `position` (strip units); the same code `layout()` uses.
    func layout(atPosition position: Double) -> FrameLayout {
        FrameLayout(viewport: viewport, cards: model.geometry.cards(on: model.strip, at: position),
                    selectedIndex: selectedIndex, itemCount: itemCount, pageCount: model.strip.pageCount,
                    selectedPage: selectedIndex / model.strip.cardsPerPage, isMoving: isMoving)
    }

    /// Strip position (steps) and velocity (steps/s) at `now`.
    func state() -> (position: Double, velocity: Double) {
        animation?.state(at: now) ?? (heldPosition, 0)
    }

    /// Pixels per strip unit.
    var step: Double { model.geometry.step }

    // MARK: - Time

    private mutating func advance(to time: Double) -> [CarouselEvent] {
        if time > now { now = time }
        var events: [CarouselEvent] = []
        settleIfDone(&events)
        if let deadline = nextDeadline, deadline <= now {
            // Start at the deadline itself, not at this frame, so the motion is the same
            // whatever the frame rate.
            change(toPage: page + 1, at: deadline, &events)
            settleIfDone(&events)
        }
        return events
    }

    mutating func settleIfDone(_ events: inout [CarouselEvent]) {
        if let fade, fade.isDone(at: now) { finishFade(&events) }
        guard let a = animation, a.isSettled(at: now, step: model.geometry.step) else { return }
        animation = nil
        rest(on: a.targetPage)
        events.append(.settled(time: now, index: selectedIndex))
    }

    /// Puts the strip exactly on a page, moved into the real copy. The layout is unchanged by
    /// the move (see `Strip`), so the loop seam never shows.
    mutating func rest(on target: Int) {
        page = model.strip.recentre(page: target).page
        heldPosition = model.strip.anchor(ofPage: page)
        if recognizer.contactsDown == 0 { autoAdvance.rest(at: now) }
    }

    /// Changes page by the configured transition, from where the strip is now.
    mutating func change(toPage target: Int, at time: Double, _ events: inout [CarouselEvent]) {
        finishFade(&events)
        switch config.transition.style {
        case .slide:
            let current = state()
            springTo(page: target, from: current.position, velocity: current.velocity, at: time)
        case .fade:
            // A slide still running ends where it was going; the fade starts from that page.
            if let a = animation { animation = nil; rest(on: a.targetPage) }
            autoAdvance.cancel()
            fade = PageFade(fromPage: page, toPage: target, startTime: time, duration: config.transition.fadeDuration)
        case .cut:
            animation = nil
            rest(on: target)
            events.append(.settled(time: now, index: selectedIndex))
        }
    }

    /// A fade in progress ends on its page at once (its time is up, a finger came down, or
    /// another page change starts).
    mutating func finishFade(_ events: inout [CarouselEvent]) {
        guard let done = fade else { return }
        fade = nil
        rest(on: done.toPage)
        events.append(.settled(time: now, index: selectedIndex))
    }

    /// Starts the spring towards a page from a position and velocity in strip units.
    mutating func springTo(page target: Int, from position: Double, velocity: Double, at time: Double) {
        autoAdvance.cancel()
        animation = SpringAnimation(spring: model.spring, startTime: time, startPosition: position,
                                    startVelocity: velocity, target: model.strip.anchor(ofPage: target),
                                    targetPage: target)
    }

    /// After the last finger lifts from a strip that is not moving, the countdown starts again.
    private mutating func restartCountdownIfIdle() {
        if recognizer.contactsDown == 0, animation == nil, autoAdvance.restSince == nil {
            autoAdvance.rest(at: now)
        }
    }

}

extension CarouselEngine {
    /// The layouts at rest on the next page and on the one before, in that order: what the next
    /// page change brings on screen. The shell readies their cards while nothing moves (on
    /// overlay planes, a card's copy into its buffer), rather than in one frame's time in the
    /// middle of the page change. Empty while the strip moves or is held, and with one page.
    public func neighbourLayouts() -> [FrameLayout] {
        restingLayouts(pagesAway: [1, -1]).map(\.layout)
    }

    /// The layouts at rest this many pages away from the resting page, each with how far its
    /// view is from the resting page's along the strip, in pixels (pages of a playlist that does
    /// not fill its last page are not evenly spaced); empty under the same conditions as
    /// `neighbourLayouts`. A panned strip draws the pages around the resting one side by side.
    public func restingLayouts(pagesAway: [Int]) -> [(distance: Double, layout: FrameLayout)] {
        guard model.strip.loops, animation == nil, fade == nil, recognizer.contactsDown == 0 else { return [] }
        let here = model.strip.anchor(ofPage: page)
        return pagesAway.map { away in
            let there = model.strip.anchor(ofPage: page + away)
            return ((there - here) * model.geometry.step, layout(atPosition: there))
        }
    }
}

extension CarouselEngine {
    /// What the config, the item count and the viewport make: the strip, where cards go, the
    /// paging rules and the spring. Rebuilt together whenever those change.
    struct Model: Sendable {
        var strip: Strip
        var geometry: LayoutGeometry
        var rules: PagingRules
        var spring: Spring

        init(config: CarouselConfig, itemCount: Int, viewport: Size) {
            strip = Strip(itemCount: itemCount, cardsPerPage: config.cardsPerPage)
            geometry = LayoutGeometry(config: config, viewport: viewport)
            rules = PagingRules(config: config)
            spring = Spring(config: config)
        }
    }
}

extension Spring {
    /// The configured spring, kept finite even for values `validate()` would reject.
    init(config: CarouselConfig) {
        let response = config.gesture.springResponse.isFinite ? max(0.01, config.gesture.springResponse) : 0.5
        let damping = config.gesture.springDamping.isFinite ? min(max(0.01, config.gesture.springDamping), 100) : 0.825
        self.init(response: response, dampingFraction: damping)
    }
}
