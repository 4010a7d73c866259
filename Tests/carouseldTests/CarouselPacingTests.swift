@testable import CarouselBackends
import CarouselConfig
@testable import CarouselCore
import CarouselEngine
import XCTest
@testable import carouseld
@testable import CarouselPixels

/// A display whose flips complete only when the test says so.
final class FakeOutput: DisplayOutput {
    var ladder = FrameLadder()
    var size: Size? = Size(width: 640, height: 400)
    var pending = false
    var presents = 0
    var presentsWhilePending = 0
    var refreshInterval = 1.0 / 60
    /// The power states committed, in order.
    private(set) var powers: [FrameState.Power] = []
    private var events: OutputEventSink?
    private weak var loop: EventLoop?
    /// Black until drawn: a frame left in reused memory would pass for one drawn now.
    private let memory: UnsafeMutableRawPointer = {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 640 * 400 * 4, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: 640 * 400 * 4)
        return memory
    }()

    /// The panned strip: when `pans`, windows are handed out and panned frames recorded by column.
    var pans = false
    private(set) var columns: [Int] = []
    private(set) var windowsAcquired = 0
    private var windows: [PixelImage] = []

    deinit { memory.deallocate() }

    func acquireWide(width: Int, height: Int) throws(DisplayError) -> PixelBuffer? {
        guard pans, let window = PixelImage(width: width, height: height) else { return nil }
        windowsAcquired += 1
        windows = [window]
        return window.buffer
    }

    var summary: String { "fake" }
    var isReady: Bool { size != nil && !pending }
    func attach(to loop: EventLoop, events: @escaping (OutputEvent) -> Void) throws {
        self.loop = loop
        self.events = OutputEventSink(loop: loop, handler: events)
    }
    func detach() { events = nil }
    var devicePath: String { "/dev/fake" }
    var isFirmwareFramebuffer: Bool { false }
    func restore() {}

    func acquire() throws(DisplayError) -> PixelBuffer {
        let (w, h) = (Int(size?.width ?? 0), Int(size?.height ?? 0))
        guard w * h <= 640 * 400 else { throw .unsupported("the fake holds 640x400") }
        return PixelBuffer(base: memory, width: w, height: h, stride: w * 4)
    }

    func commit(_ state: FrameState, _ mode: CommitMode) throws(DisplayError) -> CommitResult {
        if !state.cards.isEmpty { return .compose(.noOverlayPlanes) }
        guard mode == .apply else { return .accepted }
        if let pan = state.pan {
            guard pans, windows.first?.base == pan.window.base else { return .compose(.panRefused(error: "not this fake's window")) }
            columns.append(pan.column)
        }
        if pending || size == nil { presentsWhilePending += 1 }
        powers.append(state.power)
        guard state.power == .on else { return .accepted }
        presents += 1
        pending = true
        return .accepted
    }

    /// The pixel at (x, y) of the last frame drawn.
    func pixel(x: Int, y: Int) -> UInt32 { memory.load(fromByteOffset: (y * Int(size?.width ?? 640) + x) * 4, as: UInt32.self) }

    /// The flip completes at `time`, reported as an event only (posted, as the real outputs
    /// post theirs): nothing of the loop runs.
    func reportFlip(at time: Double) {
        pending = false
        events?.emit(.presented(at: time))
    }

    /// The flip completes at `time`, in a turn of the loop as a DRM event would: what the
    /// carousel posts in answer (its next frame) runs in that turn.
    func completeFlip(at time: Double) {
        pending = false
        events?.emit(.presented(at: time))
        _ = try? loop?.runOnce(timeoutMilliseconds: 0)
    }

    /// The screen changes (hotplug), reported in a turn of the loop.
    func changeScreen(to newSize: Size?) {
        size = newSize
        pending = false
        events?.emit(.changed)
        _ = try? loop?.runOnce(timeoutMilliseconds: 0)
    }

    /// Someone else's frame covers this one (the console, a VT back in text mode), reported in a
    /// turn of the loop.
    func cover() {
        events?.emit(.overwritten)
        _ = try? loop?.runOnce(timeoutMilliseconds: 0)
    }
}

final class RecordingRenderer: FrameRenderer {
    var layouts: [FrameLayout] = []
    var invalidations = 0
    /// How many upcoming draws report a coarse (nearest-sampled) frame.
    var coarseDraws = 0
    private(set) var needsRefinement = false
    func draw(_ layout: FrameLayout, into target: PixelBuffer) {
        layouts.append(layout)
        asks.append(layout)
        needsRefinement = coarseDraws > 0
        coarseDraws = max(0, coarseDraws - 1)
    }
    func invalidate() { invalidations += 1 }
    /// Whether a frame drawn now would show every card full (`isFinal`).
    var cardsFull = true
    /// The layouts whose cards were asked for, drawn or asked about, in order (the image store
    /// decodes for the last ask).
    private(set) var asks: [FrameLayout] = []
    func isFinal(_ layout: FrameLayout) -> Bool { asks.append(layout); return cardsFull }
    var drawsPanWindows = false
}

/// Every test moves the loop's clock itself: nothing reads the real one, nothing sleeps.
final class CarouselPacingTests: XCTestCase {
    private let time = ManualTime(1000)

    private func makeDaemon(items: Int = 3, interval: Double = 0) throws -> (Carousel, FakeOutput, RecordingRenderer, EventLoop) {
        let loop = try EventLoop(time: time)
        let (carousel, outputs, renderers) = try Carousel.recording(items: items, interval: interval, loop: loop)
        return (carousel, outputs[0], renderers[0], loop)
    }

    func testTheFirstFrameIsDrawnAtTheScreenSize() throws {
        let (daemon, output, renderer, _) = try makeDaemon()
        daemon.start()
        XCTAssertEqual(output.presents, 1)
        XCTAssertEqual(renderer.layouts.first?.viewport, Size(width: 640, height: 400))
        XCTAssertEqual(renderer.layouts.first?.selectedIndex, 0)
    }

    func testACoarseFrameIsDrawnAgainFinelyEvenThoughTheLayoutIsTheSame() throws {
        let (daemon, output, renderer, _) = try makeDaemon()
        renderer.coarseDraws = 1
        daemon.start()
        XCTAssertEqual(renderer.layouts.count, 1)
        output.completeFlip(at: time.now())
        XCTAssertEqual(renderer.layouts.count, 2, "the same layout is drawn again after a coarse frame")
        XCTAssertEqual(renderer.layouts.first, renderer.layouts.last)
        output.completeFlip(at: time.now() + 0.02)
        XCTAssertEqual(renderer.layouts.count, 2, "a fine frame of an unchanged layout is not drawn again")
    }

    func testTheNextFrameIsDrawnFromTheLoopNotInsideTheFlipEvent() throws {
        let (daemon, output, _, loop) = try makeDaemon()
        daemon.start()
        daemon.setNeedsRedraw()
        output.reportFlip(at: time.now())
        XCTAssertEqual(output.presents, 1, "the flip's handler drew nothing itself")
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.presents, 2, "the tick it posted drew the redraw")
    }

    func testScreensOffIsOneStateCommittedOnceAndOnLightsThemWithTheNextFrame() throws {
        let (daemon, output, renderer, loop) = try makeDaemon(interval: 0)
        daemon.start()
        daemon.setScreens(on: false)
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.powers, [.on], "off waits for the queued frame")
        output.completeFlip(at: time.now())
        XCTAssertEqual(output.powers, [.on, .off])
        daemon.setNeedsRedraw()
        daemon.modifyEngine { _ = $0.page(by: 1, now: time.now()) }
        for _ in 0..<30 { time.advance(by: 0.05); try loop.runOnce(timeoutMilliseconds: 0) }
        XCTAssertEqual(output.powers, [.on, .off], "nothing is drawn or committed while off")
        let drawn = renderer.layouts.count
        daemon.setScreens(on: true)
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.powers, [.on, .off, .on])
        XCTAssertEqual(renderer.layouts.count, drawn + 1, "the wake is a whole frame")
    }

    func testCardsDecodedOffScreenRecommitOnlyAScreenRestingOnPlanes() throws {
        let (daemon, output, renderer, loop) = try makeDaemon(items: 7, interval: 0)
        daemon.start()
        output.completeFlip(at: time.now())
        let visible = Set(daemon.engine.layout().cards.map(\.index))
        let offScreen = try XCTUnwrap((0..<7).first { !visible.contains($0) })
        daemon.cardsDecoded(ImageStore.Update(ready: [offScreen], failed: []))
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.presents, 1, "a composed screen is not drawn again for cards it does not show")
        XCTAssertEqual(renderer.layouts.count, 1)
    }

    func testTheFirstFrameWaitsForItsCardsAMomentAtMost() throws {
        let (daemon, output, renderer, loop) = try makeDaemon()
        renderer.cardsFull = false
        daemon.start()
        XCTAssertEqual(output.presents, 0, "no frame of an empty background before the pictures")
        time.advance(by: Carousel.firstFrameWait / 2)
        renderer.cardsFull = true   // the decode finished: the store's update redraws
        daemon.setNeedsRedraw()
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.presents, 1, "drawn once its cards are full")

        let (late, lateOutput, lateRenderer, lateLoop) = try makeDaemon()
        lateRenderer.cardsFull = false
        late.start()
        time.advance(by: Carousel.firstFrameWait - 0.01)
        try lateLoop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(lateOutput.presents, 0)
        time.advance(by: 0.02)
        try lateLoop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(lateOutput.presents, 1, "at the deadline it shows what is decoded")
        XCTAssertEqual(lateLoop.nextDeadline, nil, "and then waits for nothing")
    }

    func testTheFirstCompletedFlipIsReportedOnce() throws {
        let (daemon, output, _, loop) = try makeDaemon()
        let listener = CarouselListener(daemon.events)
        daemon.start()
        output.completeFlip(at: 12.5)
        daemon.setNeedsRedraw()
        try loop.runOnce(timeoutMilliseconds: 0)
        output.completeFlip(at: 12.6)
        XCTAssertEqual(listener.firstFrames, [12.5])
        XCTAssertEqual(daemon.framesPresented, 2)
    }

    func testSettledMeansNoMoreFramesAndNoWakeups() throws {
        let (daemon, output, _, loop) = try makeDaemon(interval: 0)   // no auto-advance: nothing may wake the loop
        daemon.start()
        output.completeFlip(at: time.now())
        XCTAssertNil(loop.nextDeadline, "no timer is armed")
        time.advance(by: 3600)
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 0), 0)
        XCTAssertEqual(output.presents, 1)
    }

    func testARedrawRequestedDuringAFlipWaitsForIt() throws {
        let (daemon, output, renderer, loop) = try makeDaemon()
        daemon.start()
        daemon.setNeedsRedraw()
        daemon.setNeedsRedraw()
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.presents, 1, "a second flip was queued while one was pending")
        output.completeFlip(at: time.now())
        XCTAssertEqual(output.presents, 2)
        XCTAssertEqual(renderer.layouts.count, 2)
        XCTAssertEqual(output.presentsWhilePending, 0)
    }

    func testAnUnchangedLayoutIsNotCommittedAgain() throws {
        let (daemon, output, _, loop) = try makeDaemon()
        daemon.start()
        output.completeFlip(at: time.now())
        daemon.wake()
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.presents, 1)
    }

    func testNothingIsDrawnWhileTheScreenIsGoneAndAllOfItWhenItReturns() throws {
        let (daemon, output, renderer, loop) = try makeDaemon()
        daemon.start()
        output.completeFlip(at: time.now())
        output.changeScreen(to: nil)
        daemon.setNeedsRedraw()
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.presents, 1)
        output.changeScreen(to: Size(width: 400, height: 640))
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.presents, 2)
        XCTAssertEqual(output.presentsWhilePending, 0)
        XCTAssertEqual(renderer.layouts.last?.viewport, Size(width: 400, height: 640))
        XCTAssertEqual(daemon.engine.viewport, Size(width: 400, height: 640))
        XCTAssertGreaterThanOrEqual(renderer.invalidations, 2, "new buffers must not be taken for old ones")
    }

    /// A carousel at rest draws nothing more of itself: a frame covered from outside is drawn
    /// again, the same layout, from the cards it has (nothing decoded again).
    func testACoveredFrameAtRestIsDrawnAgain() throws {
        let (daemon, output, renderer, loop) = try makeDaemon()
        daemon.start()
        output.completeFlip(at: time.now())
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.presents, 1, "at rest: one frame")
        let invalidations = renderer.invalidations
        output.cover()
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.presents, 2)
        XCTAssertEqual(renderer.layouts.last, renderer.layouts.first)
        XCTAssertEqual(renderer.invalidations, invalidations, "the same screen: its cards are kept")
    }

    func testWhileMovingEachFlipBringsExactlyOneFrameUntilSettled() throws {
        let (daemon, output, renderer, loop) = try makeDaemon()
        daemon.start()
        var t = time.now()
        output.completeFlip(at: t)
        daemon.updateEngine(cause: .ctl) { $0.page(by: 1, now: t) }
        try loop.runOnce(timeoutMilliseconds: 0)
        var flips = 0
        while output.pending && flips < 600 {
            let before = output.presents
            t += 1.0 / 60
            output.completeFlip(at: t)
            flips += 1
            XCTAssertLessThanOrEqual(output.presents - before, 1)
        }
        XCTAssertFalse(daemon.engine.isMoving)
        XCTAssertGreaterThan(flips, 10, "a spring of about half a second takes many frames")
        XCTAssertLessThan(flips, 600)
        XCTAssertEqual(output.presentsWhilePending, 0)
        XCTAssertEqual(renderer.layouts.last?.selectedIndex, 1)
        // The clock of each frame is the flip time: every committed frame differs from the last.
        let layouts = renderer.layouts.dropFirst()
        XCTAssertTrue(zip(layouts, layouts.dropFirst()).allSatisfy { $0 != $1 })
    }

    func testFlipsFasterThanTheRefreshAreHeldBackToIt() throws {
        let (daemon, output, _, loop) = try makeDaemon()
        daemon.start()
        let t = time.now()
        output.completeFlip(at: t)
        daemon.updateEngine(cause: .ctl) { $0.page(by: 1, now: t) }
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.presents, 2)
        output.completeFlip(at: t + 0.001)   // a virtual GPU: done at once
        XCTAssertEqual(output.presents, 2, "the next frame waits for the refresh period")
        let start = time.now()
        while output.presents == 2 && time.now() - start < 1 {
            time.advance(by: 0.001)
            try loop.runOnce(timeoutMilliseconds: 0)
        }
        XCTAssertEqual(output.presents, 3)
        XCTAssertEqual(time.now(), t + 1.0 / 60, accuracy: 0.0015, "drawn at the next refresh, not before, not much after")
    }

    func testAutoAdvanceWakesTheLoopAtItsDeadline() throws {
        let (daemon, output, renderer, loop) = try makeDaemon(interval: 0.2)
        daemon.start()
        let start = time.now()
        output.completeFlip(at: start)
        while output.presents == 1 && time.now() - start < 2 {
            time.advance(by: 0.01)
            try loop.runOnce(timeoutMilliseconds: 0)
        }
        XCTAssertEqual(output.presents, 2)
        XCTAssertEqual(time.now() - start, 0.2, accuracy: 0.015, "the page turns at the interval's end")
        var t = time.now()
        while output.pending { t += 1.0 / 60; output.completeFlip(at: t) }
        XCTAssertEqual(renderer.layouts.last?.selectedIndex, 1)
    }

    /// A daemon on a loop whose clock the test moves: nothing sleeps.
    /// The loop asks nobody whether something animates: the carousel tells the loop's observer
    /// after each tick, moving on a lit screen and then at rest, and once more when stopped.
    func testTheCarouselTellsTheLoopsObserverWhileItAnimates() throws {
        let (daemon, output, loop, time) = try makeManualDaemon()
        let observer = AnimationRecorder()
        loop.observer = observer
        daemon.start()
        daemon.updateEngine(cause: .ctl) { $0.page(by: 1, now: time.now()) }
        try loop.runOnce(timeoutMilliseconds: 0)   // the tick the page change posted
        XCTAssertEqual(observer.told.last, true, "moving on a lit screen: \(observer.told)")
        let end = time.now() + 3
        while daemon.engine.isMoving, time.now() < end {
            time.advance(by: 0.1)
            if output.pending { output.completeFlip(at: time.now()) }
            try loop.runOnce(timeoutMilliseconds: 0)
        }
        XCTAssertFalse(daemon.engine.isMoving, "the page change came to rest")
        XCTAssertEqual(observer.told.last, false, "at rest: \(observer.told)")
        daemon.updateEngine(cause: .ctl) { $0.page(by: 1, now: time.now()) }
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(observer.told.last, true)
        daemon.stop()
        XCTAssertEqual(observer.told.last, false, "a stopped carousel animates no more")
    }

    private final class AnimationRecorder: LoopObserver {
        var told: [Bool] = []
        func woke(at time: Double, sleptUntil: Double?) {}
        func ran(_ name: String, _ work: () -> Void) { work() }
        func turnEnded() {}
        func animating(_ who: ObjectIdentifier, _ isAnimating: Bool) { told.append(isAnimating) }
    }

    private func makeManualDaemon() throws -> (Carousel, FakeOutput, EventLoop, ManualTime) {
        let time = ManualTime(1000)
        let loop = try EventLoop(time: time)
        let (carousel, outputs, _) = try Carousel.recording(items: 3, interval: 4, loop: loop)
        return (carousel, outputs[0], loop, time)
    }

    /// Seconds pass on the loop's clock; flips complete a refresh after they were queued.
    private func run(_ loop: EventLoop, _ time: ManualTime, _ output: FakeOutput, seconds: Double) throws {
        let end = time.now() + seconds
        while time.now() < end {
            time.advance(by: 0.1)
            if output.pending { output.completeFlip(at: time.now()) }
            try loop.runOnce(timeoutMilliseconds: 0)
        }
    }

    /// The real-kernel fault: a finger resting on the panel holds the engine's clock (only touch
    /// frames move it), and the watchdog's wakeup, run with that clock, never came due: no ping
    /// for as long as the finger rested, and systemd restarted the daemon. The watchdog is now a
    /// timer of the loop, due by the loop's clock.
    func testTheWatchdogPingsWhileAFingerRests() throws {
        let (daemon, output, loop, time) = try makeManualDaemon()
        let watchdog = Watchdog(interval: 1, notifier: Notifier(), loop: loop)
        daemon.start()
        let t0 = time.now()
        daemon.updateEngine(cause: .ctl) { $0.handle(TouchFrame(time: t0, samples: [TouchSample(slot: 0, phase: .down, x: 300, y: 200)], contactsDown: 1)) }
        daemon.updateEngine(cause: .ctl) { $0.handle(TouchFrame(time: t0 + 0.01, samples: [TouchSample(slot: 0, phase: .move, x: 280, y: 200)], contactsDown: 1)) }
        try run(loop, time, output, seconds: 13)
        XCTAssertTrue(daemon.fingersDown, "the finger still rests")
        XCTAssertEqual(daemon.engine.now, t0 + 0.01, "the engine's clock stood still meanwhile")
        XCTAssertEqual(watchdog.pings, 13, "one ping a second while the finger rests")
        XCTAssertLessThanOrEqual(watchdog.takeLongestGap(), 1.1)
    }

    /// Waiting for a display (no screen) while the engine moves: nothing is drawn, so no flip
    /// drives the loop, yet the watchdog must still ping (it once starved, and systemd killed a
    /// daemon that was only waiting for a late GPU driver).
    func testTheWatchdogPingsWhileTheStripMovesWithNoScreen() throws {
        let (daemon, output, loop, time) = try makeManualDaemon()
        output.size = nil
        let watchdog = Watchdog(interval: 1, notifier: Notifier(), loop: loop)
        daemon.start()
        daemon.updateEngine(cause: .ctl) { $0.page(by: 1, now: time.now()) }
        XCTAssertTrue(daemon.engine.isMoving)
        try run(loop, time, output, seconds: 3.05)
        XCTAssertEqual(watchdog.pings, 3)
        XCTAssertEqual(output.presents, 0)
    }

    /// A box whose screen is not lit (HDMI unplugged at boot): auto-advance's move once never
    /// ended, as no flip stepped it. The loop's stall meter said "loop stalled" every second,
    /// and a config reload, which waits for the strip to rest, waited for a screen.
    func testWithNoScreenAMoveRunsItsCourseUnseenAndIsNoStall() throws {
        let (daemon, output, loop, time) = try makeManualDaemon()
        output.size = nil
        daemon.modifyEngine { $0.resize(Size(width: 1920, height: 1080)) }   // the config's `mode`
        daemon.start()
        daemon.updateEngine(cause: .ctl) { $0.page(by: 1, now: time.now()) }
        XCTAssertTrue(daemon.engine.isMoving)
        XCTAssertFalse(daemon.isAnimatingOnScreen)
        try loop.runOnce(timeoutMilliseconds: 0)   // the tick the page change posted
        let end = time.now() + 3
        while daemon.engine.isMoving, time.now() < end, let due = loop.nextDeadline {
            time.advance(by: max(0, due - time.now()))
            try loop.runOnce(timeoutMilliseconds: 0)
        }
        XCTAssertFalse(daemon.engine.isMoving, "the move ran its course")
        XCTAssertEqual(daemon.engine.layout().selectedIndex, 1)
        XCTAssertEqual(output.presents, 0)
    }

    func testWhileAFingerIsDownOnlyTouchFramesMoveTheClock() throws {
        let (daemon, output, _, loop) = try makeDaemon()
        daemon.start()
        let t0 = daemon.engine.now
        output.completeFlip(at: t0)
        daemon.updateEngine(cause: .ctl) { $0.handle(TouchFrame(time: t0 + 0.01, samples: [TouchSample(slot: 0, phase: .down, x: 300, y: 200)], contactsDown: 1)) }
        daemon.updateEngine(cause: .ctl) { $0.handle(TouchFrame(time: t0 + 0.02, samples: [TouchSample(slot: 0, phase: .move, x: 250, y: 200)], contactsDown: 1)) }
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.presents, 2, "the drag is drawn")
        XCTAssertTrue(daemon.fingersDown, "the engine's recogniser says a finger is down")
        output.completeFlip(at: t0 + 0.5)   // a flip (or a slow frame) far later than the touches
        XCTAssertEqual(daemon.engine.now, t0 + 0.02, "a flip time must not stamp queued touches late")
        daemon.updateEngine(cause: .ctl) { $0.handle(TouchFrame(time: t0 + 0.51, samples: [TouchSample(slot: 0, phase: .up, x: 200, y: 200)], contactsDown: 0)) }
        XCTAssertFalse(daemon.fingersDown)
        try loop.runOnce(timeoutMilliseconds: 0)
        output.completeFlip(at: t0 + 0.6)
        XCTAssertEqual(daemon.engine.now, t0 + 0.6, "after the lift flip times drive the clock again")
    }

    func testAStoppedDaemonDrawsNothingMore() throws {
        let (daemon, output, _, loop) = try makeDaemon()
        daemon.start()
        daemon.setNeedsRedraw()        // e.g. a picture decoded in the same turn as SIGTERM
        daemon.stop()
        output.completeFlip(at: time.now())
        try loop.runOnce(timeoutMilliseconds: 0)
        XCTAssertEqual(output.presents, 1)
    }
}

/// Several screens showing one carousel (mirror, span).
final class CarouselScreensPacingTests: XCTestCase {
    private let time = ManualTime(1000)

    private func makeDaemon(layout: OutputLayout = .mirror) throws -> (Carousel, [FakeOutput], [RecordingRenderer], EventLoop) {
        let loop = try EventLoop(time: time)
        let (carousel, outputs, renderers) = try Carousel.recording(items: 3, interval: 0, screens: 2, layout: layout, loop: loop)
        return (carousel, outputs, renderers, loop)
    }

    func testEveryScreenShowsTheLayoutOfTheSameInstant() throws {
        let (daemon, outputs, renderers, loop) = try makeDaemon()
        daemon.start()
        var t = time.now()
        outputs[0].completeFlip(at: t)
        outputs[1].completeFlip(at: t + 0.004)
        daemon.updateEngine(cause: .ctl) { $0.page(by: 1, now: t) }
        try loop.runOnce(timeoutMilliseconds: 0)
        for _ in 0..<5 {
            t += 1.0 / 60
            outputs[0].completeFlip(at: t)          // the leader paces
            outputs[1].completeFlip(at: t + 0.007)  // the other one flips later in the frame
        }
        XCTAssertGreaterThan(renderers[0].layouts.count, 5)
        XCTAssertEqual(renderers[0].layouts, renderers[1].layouts, "the second screen draws the leader's layouts, no others")
    }

    func testASlowScreenNeverHoldsTheLeaderUp() throws {
        let (daemon, outputs, renderers, loop) = try makeDaemon()
        daemon.start()
        var t = time.now()
        outputs[0].completeFlip(at: t)
        daemon.updateEngine(cause: .ctl) { $0.page(by: 1, now: t) }
        try loop.runOnce(timeoutMilliseconds: 0)
        for _ in 0..<10 {   // the second screen never completes its first flip
            t += 1.0 / 60
            outputs[0].completeFlip(at: t)
        }
        XCTAssertEqual(renderers[0].layouts.count, 12)
        XCTAssertEqual(outputs[1].presents, 1)
        XCTAssertEqual(outputs[1].presentsWhilePending, 0)
        // When it completes, it catches up with what the leader shows now, not with old frames.
        outputs[1].completeFlip(at: t + 0.001)
        XCTAssertEqual(renderers[1].layouts.last, renderers[0].layouts.last)
    }

    func testALeaderThatStopsFlippingHandsThePaceToTheTimer() throws {
        let (daemon, outputs, renderers, loop) = try makeDaemon()
        daemon.start()
        let t = time.now()
        outputs[0].completeFlip(at: t)
        outputs[1].completeFlip(at: t)
        daemon.updateEngine(cause: .ctl) { $0.page(by: 1, now: t) }
        try loop.runOnce(timeoutMilliseconds: 0)
        let before = renderers[1].layouts.count
        outputs[1].completeFlip(at: t + 0.001)
        // The leader's flip never completes (its screen went dark): the other screen still moves.
        let start = time.now()
        while renderers[1].layouts.count < before + 2 && time.now() - start < 2 {
            time.advance(by: 0.005)
            try loop.runOnce(timeoutMilliseconds: 0)
            if outputs[1].pending { outputs[1].completeFlip(at: time.now()) }
        }
        XCTAssertGreaterThanOrEqual(renderers[1].layouts.count, before + 2)
    }

    func testTheArrangementSetsTheViewportAndIsToldOfScreenChanges() throws {
        let (daemon, outputs, _, _) = try makeDaemon(layout: .span)
        let listener = CarouselListener(daemon.events)
        XCTAssertEqual(daemon.engine.viewport, Size(width: 1280, height: 400), "spanned: side by side")
        outputs[1].changeScreen(to: Size(width: 320, height: 400))
        XCTAssertEqual(daemon.engine.viewport, Size(width: 960, height: 400))
        outputs[1].changeScreen(to: nil)
        XCTAssertEqual(daemon.engine.viewport, Size(width: 960, height: 400), "a spanned screen gone dark keeps its place")
        XCTAssertEqual(listener.resized, 2, "touches are mapped anew after each change")
    }
}

/// Keeps what a carousel tells (its `AppEvent`s), as the daemon's root would hear them.
final class CarouselListener {
    private(set) var resized = 0
    private(set) var events: [CarouselEvent] = []
    private(set) var firstFrames: [Double] = []
    private(set) var departures: [(MoveCause, Double)] = []

    init(_ appEvents: AppEvents) {
        appEvents.deliver { [unowned self] event in
            switch event {
            case .resized: resized += 1
            case .engine(_, let event): events.append(event)
            case .firstFrame(_, let time, _): firstFrames.append(time)
            case .leftRest(_, let cause, let time): departures.append((cause, time))
            default: break
            }
        }
    }
}

extension Carousel {
    /// A carousel of `items` pictures on `screens` fake outputs of 640x400, whose renderers
    /// record what they draw (the same renderer per screen whenever the carousel makes them anew).
    static func recording(items: Int, interval: Double, screens: Int = 1, layout: OutputLayout = .mirror,
                          loop: EventLoop, configure: (inout CarouselConfig) -> Void = { _ in })
        throws -> (Carousel, [FakeOutput], [RecordingRenderer]) {
        var config = CarouselConfig()
        config.interval = interval
        configure(&config)
        let outputs = (0..<screens).map { _ in FakeOutput() }
        let renderers = (0..<screens).map { _ in RecordingRenderer() }
        var made = 0
        let carousel = try Carousel(
            plan: ScreenPlan.CarouselPlan(name: "", screens: Array(0..<screens), config: config), layout: layout,
            outputs: outputs, rotations: Array(repeating: 0, count: screens),
            content: .init(config: config, shell: ShellSettings(),
                           items: (0..<items).map { PlaylistItem(path: "/nonexistent/\($0).png") }),
            loop: loop, events: AppEvents(loop: loop), now: loop.time.now(),
            makeRenderer: { _, _, _ in defer { made += 1 }; return renderers[made % screens] })
        return (carousel, outputs, renderers)
    }
}
