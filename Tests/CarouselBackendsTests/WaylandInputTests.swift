@testable import CarouselBackends
@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
import XCTest

/// wl_touch, wl_pointer and wl_keyboard into the daemon's input path, with no compositor.
final class WaylandInputTests: XCTestCase {
    private let screen = Size(width: 1280, height: 720)
    override func setUp() { Log.sink = { _, _ in } }
    override func tearDown() { Log.sink = nil }

    /// A seat with touch, through the same translator as libinput's events.
    private func seat() -> (WaylandInputEvents, InputTranslator) {
        var events = WaylandInputEvents()
        var translator = InputTranslator(settings: ShellSettings(), screen: screen)
        _ = translator.translate(events.seatCapabilities([.touch, .keyboard], seat: "seat0", now: 100))
        translator.startupFinished()
        return (events, translator)
    }

    func testTouchesAreGroupedPerFrame() {
        var (w, t) = seat()
        let now = 100.0
        XCTAssertEqual(t.translate([w.touchDown(id: 0, x: 100, y: 200, ms: 99_000, now: now)]), [], "no frame yet")
        let actions = t.translate([w.touchDown(id: 1, x: 300, y: 200, ms: 99_010, now: now),
                                   w.touchMotion(id: 0, x: 110, y: 200, ms: 99_010, now: now),
                                   w.touchFrame(now: now)])
        XCTAssertEqual(actions, [.touch(TouchFrame(time: 99.01, samples: [
            TouchSample(slot: 0, phase: .down, x: 100, y: 200),
            TouchSample(slot: 1, phase: .down, x: 300, y: 200),
            TouchSample(slot: 0, phase: .move, x: 110, y: 200)], contactsDown: 2))],
            "one group: both downs and the motion, stamped with the protocol's time")
    }

    func testCancelCancelsEveryTouchDown() {
        var (w, t) = seat()
        _ = t.translate([w.touchDown(id: 4, x: 500, y: 300, ms: 1000, now: 1.0),
                         w.touchDown(id: 7, x: 600, y: 300, ms: 1000, now: 1.0), w.touchFrame(now: 1.0)])
        _ = t.translate([w.touchMotion(id: 4, x: 450, y: 300, ms: 1016, now: 1.02), w.touchFrame(now: 1.02)])
        let actions = t.translate(w.touchCancel(now: 1.05))
        XCTAssertEqual(actions, [.touch(TouchFrame(time: 1.05, samples: [
            TouchSample(slot: 4, phase: .cancel, x: 450, y: 300),
            TouchSample(slot: 7, phase: .cancel, x: 600, y: 300)], contactsDown: 0))])
        XCTAssertEqual(t.translate(w.touchCancel(now: 1.1)), [], "nothing left to cancel")
    }

    /// `wl_touch.cancel` names no touch and goes to every window: each window's translator
    /// cancels the touches it holds, and a window with none gets no cancel at all.
    func testCancelReachesOnlyTheWindowsWithTouchesDown() {
        var (w, touched) = seat()
        var (_, untouched) = seat()
        _ = touched.translate([w.touchDown(id: 3, x: 200, y: 100, ms: 1000, now: 1.0), w.touchFrame(now: 1.0)])
        let cancel = w.touchCancel(now: 1.05)
        XCTAssertEqual(touched.translate(cancel), [.touch(TouchFrame(time: 1.05, samples: [
            TouchSample(slot: 3, phase: .cancel, x: 200, y: 100)], contactsDown: 0))])
        XCTAssertEqual(untouched.translate(cancel), [], "no touch of this window was down")
    }

    /// A cancelled drag springs back: the engine ends where it started, with no page.
    func testCancelSpringsBackInTheEngine() {
        var (w, t) = seat()
        var engine = CarouselEngine(config: CarouselConfig(), itemCount: 5, viewport: screen, now: 1)
        var now = 1.0
        for action in t.translate([w.touchDown(id: 0, x: 900, y: 300, ms: 1000, now: now), w.touchFrame(now: now)]) {
            _ = engine.apply(action)
        }
        for step in 1...10 {
            now = 1 + Double(step) * 0.016
            let ms = UInt32((now * 1000).rounded())
            for action in t.translate([w.touchMotion(id: 0, x: 900 - Double(step) * 40, y: 300, ms: ms, now: now),
                                       w.touchFrame(now: now)]) { _ = engine.apply(action) }
        }
        for action in t.translate(w.touchCancel(now: now)) { _ = engine.apply(action) }
        while engine.isMoving, now < 10 { now += 1.0 / 60; _ = engine.update(now: now) }
        XCTAssertEqual(engine.selectedIndex, 0, "a cancel is not a release: no page")
    }

    func testAnIdIsReusedAfterItsUp() {
        var (w, t) = seat()
        _ = t.translate([w.touchDown(id: 0, x: 10, y: 10, ms: 500, now: 0.6), w.touchFrame(now: 0.6)])
        XCTAssertEqual(t.translate([w.touchUp(id: 0, ms: 520, now: 0.6), w.touchFrame(now: 0.6)]),
                       [.touch(TouchFrame(time: 0.52, samples: [TouchSample(slot: 0, phase: .up, x: 10, y: 10)], contactsDown: 0))])
        XCTAssertEqual(t.translate([w.touchDown(id: 0, x: 700, y: 20, ms: 900, now: 0.95), w.touchFrame(now: 0.95)]),
                       [.touch(TouchFrame(time: 0.9, samples: [TouchSample(slot: 0, phase: .down, x: 700, y: 20)], contactsDown: 1))],
                       "a new touch with the old id")
        XCTAssertEqual(t.translate(w.touchCancel(now: 1)).count, 1, "only the new touch is down")
    }

    func testTouchRemovedFromTheSeatMidDragCancels() {
        var (w, t) = seat()
        _ = t.translate([w.touchDown(id: 2, x: 10, y: 10, ms: 500, now: 0.6), w.touchFrame(now: 0.6)])
        let actions = t.translate(w.seatCapabilities([.keyboard], seat: "seat0", now: 0.7))
        XCTAssertEqual(actions, [.cancelTouches(time: 0.7)])
    }

    func testArrowKeysPage() {
        var (w, t) = seat()
        XCTAssertEqual(t.translate([w.key(code: 106, pressed: true, ms: 2000, now: 2.01)]), [.page(1, time: 2.0)])
        XCTAssertEqual(t.translate([w.key(code: 106, pressed: false, ms: 2050, now: 2.06)]), [])
    }

    func testProtocolTimesOnTheMonotonicClock() {
        var clock = WaylandClock()
        // A compositor stamping CLOCK_MONOTONIC: the stamp is the time itself.
        XCTAssertEqual(clock.seconds(ms: 123_456, now: 123.5), 123.456, accuracy: 1e-9)
        XCTAssertEqual(clock.seconds(ms: 123_400, now: 123.6), 123.4, accuracy: 1e-9, "older events keep their time")
        // Past 2^32 ms (49.7 days of uptime) the stamps wrap; the cycle comes from `now`.
        let now = WaylandClock.cycle + 10
        var wrapped = WaylandClock()
        XCTAssertEqual(wrapped.seconds(ms: 9_990, now: now), WaylandClock.cycle + 9.99, accuracy: 1e-6)
        // Another base: moved onto the monotonic clock, differences exact.
        var foreign = WaylandClock()
        let first = foreign.seconds(ms: 5_000_000, now: 42)
        let second = foreign.seconds(ms: 5_000_016, now: 42.02)
        XCTAssertEqual(first, 42, accuracy: 1e-9)
        XCTAssertEqual(second - first, 0.016, accuracy: 1e-9)
    }
}

/// A compositor that sends no wl_touch.frame (cage 0.1.4): one group per hardware report.
final class WaylandUnframedTouchTests: XCTestCase {
    override func setUp() { Log.sink = { _, _ in } }
    override func tearDown() { Log.sink = nil }

    func testUnframedTouchesAreGroupedByTimestamp() {
        var w = WaylandInputEvents()
        _ = w.seatCapabilities([.touch], seat: "seat0", now: 1)
        let unframed = [w.touchDown(id: 0, x: 900, y: 300, ms: 1000, now: 1.1),
                        w.touchMotion(id: 0, x: 880, y: 300, ms: 1008, now: 1.1),
                        w.touchMotion(id: 0, x: 850, y: 300, ms: 1016, now: 1.1),
                        w.touchDown(id: 1, x: 100, y: 300, ms: 1016, now: 1.1)]
        var t = InputTranslator(settings: ShellSettings(), screen: Size(width: 1280, height: 720))
        let frames = t.translate(w.framedByTime(unframed)).compactMap { action -> TouchFrame? in
            if case .touch(let frame) = action { return frame } else { return nil }
        }
        XCTAssertEqual(frames.map(\.time), [1.0, 1.008, 1.016], "one frame per report, at its own time")
        XCTAssertEqual(frames.map(\.samples.count), [1, 1, 2], "the two changes of one report stay together")
    }

    /// Through the engine: the release velocity of an unframed swipe is the finger's, not the
    /// speed of a whole swipe stacked at one instant.
    func testUnframedSwipeKeepsTheFingersVelocity() {
        var w = WaylandInputEvents()
        let screen = Size(width: 1280, height: 720)
        var t = InputTranslator(settings: ShellSettings(), screen: screen)
        _ = t.translate(w.seatCapabilities([.touch], seat: "seat0", now: 1))
        var engine = CarouselEngine(config: CarouselConfig(), itemCount: 5, viewport: screen, now: 1)
        var batch: [DeviceEvent] = [w.touchDown(id: 0, x: 1000, y: 300, ms: 1000, now: 1.2)]
        for step in 1...12 {  // 2000 px/s: 16 px every 8 ms
            batch.append(w.touchMotion(id: 0, x: 1000 - Double(step) * 16, y: 300, ms: UInt32(1000 + step * 8), now: 1.2))
        }
        batch.append(w.touchUp(id: 0, ms: 1100, now: 1.2))
        var release: Double?
        for action in t.translate(w.framedByTime(batch)) {
            for event in engine.apply(action) { if case .release(_, let vx, _, _, _) = event { release = vx } }
        }
        XCTAssertEqual(release ?? 0, -2000, accuracy: 200)
    }
}
