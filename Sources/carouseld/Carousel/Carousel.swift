import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels

/// One carousel: its engine, the screens that show it (all of them in mirror and span, one in
/// independent), what it shows (playlist and settings) and how (a renderer per screen over image
/// stores shared by screens whose cards have the same size), and the pacing of its frames.
///
/// The files of this type: here its state and what the rest of the daemon asks of it;
/// `Carousel+Frames` the ticks, the flips and which screens get a frame (each output shows it
/// the cheapest way it takes: `FrameLadder`); `Carousel+KeptFrame` the warm start's frame;
/// `Carousel+Content` the playlist, the renderers and their stores.
///
/// What it has to say (first frame, engine events, leaving rest, new sizes) goes out as
/// `AppEvent`s, handed out after the handler that made them, never inside the engine's update.
final class Carousel {
    let plan: ScreenPlan.CarouselPlan
    let loop: EventLoop
    let events: AppEvents
    var engine: CarouselEngine
    var screens: [Screen]
    var pacing = Pacing()
    var stopped = false
    /// The screens are to be lit (`setScreens(on:)`).
    private(set) var screensOn = true
    /// The moments of the start, and how long its first frame may wait.
    var startup = StartMoments()
    /// What it shows and how: replaced as a whole by a reload or a daypart switch.
    var content: Content
    /// The image stores and how each screen's renderer is made over them.
    var rendering: Rendering
    /// The carousel's place on each screen, kept across a screen going dark.
    var arranger: Arranger
    /// The start frames kept for the next start (`Carousel+KeptFrame`).
    let keeping: KeptFrames
    /// The playlist a daypart switch is heading for, once the bridge's page change rests.
    var switchingTo: [PlaylistItem]?

    /// How a screen's renderer is made from its store (tests record what is drawn instead).
    typealias MakeRenderer = (ImageStore, CarouselConfig, ViewTransform) -> FrameRenderer
    static func compositor(_ store: ImageStore, _ config: CarouselConfig, _ view: ViewTransform) -> FrameRenderer {
        CompositorRenderer(store: store, config: config, view: view)
    }

    /// When the first frame became visible; when the first cards came from the decoder, the
    /// first frame began to be drawn (its cards ready, or the wait over) and was committed: the
    /// start's breakdown in the log. Until `firstFrameDeadline`, a screen's first frame waits
    /// for its full cards (`start`).
    struct StartMoments {
        var firstFrame: Double?
        var firstDecode: Double?
        var firstDraw: Double?
        var firstCommit: Double?
        var firstFrameDeadline: Double?
    }

    struct Rendering {
        /// One per card scale in use (mirror at two sizes: two).
        var stores: [Double: ImageStore] = [:]
        /// Cards on disk, shared by every store of the daemon; nil without a cache directory.
        let cache: CardCache?
        let makeRenderer: MakeRenderer
    }

    struct Content {
        var config: CarouselConfig
        var shell: ShellSettings
        var items: [PlaylistItem]
        /// `LoadedConfig.configDigest` of the config file these came from (the kept frame's key).
        var configDigest: UInt64 = 0
    }

    init(plan: ScreenPlan.CarouselPlan, layout: OutputLayout, outputs: [DisplayOutput], rotations: [Int], content: Content,
         loop: EventLoop, events: AppEvents, now: Double, cache: CardCache? = nil, keptFrames: String? = nil,
         makeRenderer: @escaping MakeRenderer = Carousel.compositor) throws {
        self.plan = plan; self.content = content
        self.loop = loop; self.events = events; rendering = Rendering(cache: cache, makeRenderer: makeRenderer)
        keeping = KeptFrames(directory: keptFrames, loop: loop)
        arranger = Arranger(plan: ScreenPlan(layout: layout, screens: [], carousels: [plan]), sizes: outputs.map(\.size))
        engine = CarouselEngine(config: content.config, itemCount: content.items.count,
                                viewport: arranger.current?.viewport ?? Size(width: 1920, height: 1080), now: now,
                                itemDurations: content.items.map(\.duration))
        screens = zip(outputs, rotations).map { Screen(output: $0, rotation: $1) }
        pacing.timer = loop.timer("frame timer", owner: self) { $0.tick(now: $1) }
        try attachScreens()
        if showsKeptFrameAsMade { showKeptFrames() }
        rebuildRenderers()
    }

    var config: CarouselConfig { content.config }
    var shell: ShellSettings { content.shell }
    var items: [PlaylistItem] { content.items }
    var outputs: [DisplayOutput] { screens.map(\.output) }
    /// Frames that became visible so far (on any screen).
    var framesPresented: Int { pacing.framesPresented }

    /// "HDMI-A-1: " before a log line when there are several carousels; "" for one.
    var prefix: String { plan.name.isEmpty ? "" : "\(plan.name): " }

    /// True while a finger is down. The engine's clock then advances only with touch frames:
    /// their kernel times trail the wall clock (more so while a frame is being drawn), and a
    /// flip time or timer pushed into `now` would stamp the touches still queued too late,
    /// which reads as a finger that rested before lifting (no fling).
    var fingersDown: Bool { engine.hasFingersDown }

    /// The strip moves on a lit screen, so frames come one a refresh: what the loop's stall
    /// meter is told after each tick. A move with no screen lit steps a few times a second, and
    /// is no stall.
    var isAnimatingOnScreen: Bool { engine.isMoving && pacingScreen != nil }

    /// How long a screen's first frame may wait for its full cards before it shows what is
    /// decoded (previews; the background where none is yet): long enough for the usual first
    /// cards, short enough that slow side cards at boot never hold the whole first frame
    /// (docs/testing.md, the first-picture race).
    static let firstFrameWait = 0.6

    /// Shows the kept start frame where one matches, then draws the first frame (if a screen is
    /// there) and arms the first deadline. Like fbi, the first frame shows the pictures, not an
    /// empty background a moment before them: it waits for its cards, `firstFrameWait` at most.
    func start() {
        startup.firstFrameDeadline = loop.time.now() + Self.firstFrameWait
        if !showsKeptFrameAsMade { showKeptFrames() }
        askForKeptFramesCards()
        tick(now: loop.time.now())
    }

    /// Applies a change to the engine (a touch frame, a key) and reports its events; the
    /// resulting frame is drawn once the current handler returns. `cause` names the asker: if
    /// the change takes the strip off its rest, that is said first, so the picture's showing
    /// ends when its move began.
    func updateEngine(cause: MoveCause, _ change: (inout CarouselEngine) -> [CarouselEvent]) {
        let wasAtRest = !engine.isMoving
        let new = change(&engine)
        if wasAtRest, leftRest(new) { events.emit(.leftRest(self, cause, at: engine.now)) }
        report(new)
        scheduleTick()
    }

    /// Runs `body` on the engine (reconfigure, pause); call `setNeedsRedraw` if it changed.
    func modifyEngine<T>(_ body: (inout CarouselEngine) -> T) -> T { body(&engine) }

    /// Runs a tick (due wakeups, engine, frame) once the current handler returns.
    func wake() { scheduleTick() }

    /// No more ticks, frames or timers: the screen is about to be given back.
    func stop() {
        stopped = true
        pacing.timer?.schedule(at: nil)
        for screen in screens { screen.clock?.stop() }
        loop.observer?.animating(ObjectIdentifier(self), false)
    }

    /// A carousel replaced without a stop (a failed start) animates no more either.
    deinit { loop.observer?.animating(ObjectIdentifier(self), false) }

    /// Draws the next frame even if the layout did not change (an image arrived), on every
    /// screen or on those of `indices` (a screen whose frame was covered from outside).
    func setNeedsRedraw() { setNeedsRedraw(screens.indices) }

    func setNeedsRedraw(_ indices: some Sequence<Int>) {
        for i in indices { screens[i].redraw = true; screens[i].output.ladder.redrawBackground() }
        scheduleTick()
    }

    /// The screens' power: off is a state committed once to each screen as soon as it is free
    /// (no signal; the strip goes on moving unseen); on lights them with the next frame.
    func setScreens(on: Bool) {
        guard on != screensOn else { return }
        screensOn = on
        setNeedsRedraw()
    }

    /// The strip moves now, or was cut: an engine at rest before reports `settled` only for a cut.
    func leftRest(_ new: [CarouselEvent]) -> Bool {
        engine.isMoving || new.contains { if case .settled = $0 { true } else { false } }
    }
}
