import XCTest
@testable import CarouselEngine

/// A 1000×600 screen with 600 px cards and 40 px spacing: step 640, the centre card's left edge
/// at 200, its neighbours peeking in at -440 and 840.
enum Fixture {
    static let viewport = Size(width: 1000, height: 600)
    static let step = 640.0
    static let centreX = 200.0

    static func config(_ change: (inout CarouselConfig) -> Void = { _ in }) -> CarouselConfig {
        var c = CarouselConfig()
        c.cardWidth = .pixels(600)
        c.cardHeight = .pixels(400)
        c.spacing = 40
        c.interval = 0
        change(&c)
        return c
    }

    static func engine(items: Int = 5, start: Int = 0, now: Double = 0,
                       _ change: (inout CarouselConfig) -> Void = { _ in }) -> CarouselEngine {
        CarouselEngine(config: config(change), itemCount: items, viewport: viewport, now: now, startIndex: start)
    }
}

/// One finger's frame. `contactsDown`: the input's count of contacts after it; by default the
/// finger's own (1 while it is down), for a test with one finger.
func touch(_ time: Double, _ phase: TouchPhase, _ x: Double, _ y: Double = 300, slot: Int = 0,
           contactsDown: Int? = nil) -> TouchFrame {
    TouchFrame(time: time, samples: [TouchSample(slot: slot, phase: phase, x: x, y: y)],
               contactsDown: contactsDown ?? (phase == .down || phase == .move ? 1 : 0))
}

extension CarouselEngine {
    /// Calls `update` at `hz` from just after `from` up to and including `to`.
    mutating func run(from: Double, to: Double, hz: Double = 60) -> [CarouselEvent] {
        var events: [CarouselEvent] = []
        var frame = 1
        while from + Double(frame) / hz < to {
            events += update(now: from + Double(frame) / hz)
            frame += 1
        }
        events += update(now: to)
        return events
    }

    /// A straight horizontal drag: down at `x0`, `steps` moves to `x1` over `duration`, then up
    /// at the last point (`liftDelay` later). Returns the events and the time of the lift.
    @discardableResult
    mutating func swipe(from x0: Double, to x1: Double, at start: Double, duration: Double,
                        steps: Int = 10, liftDelay: Double = 0, slot: Int = 0,
                        events: inout [CarouselEvent]) -> Double {
        events += handle(touch(start, .down, x0, slot: slot))
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            events += handle(touch(start + duration * f, .move, x0 + (x1 - x0) * f, slot: slot))
        }
        let lift = start + duration + liftDelay
        events += handle(touch(lift, .up, x1, slot: slot))
        return lift
    }

    /// Runs at 60 Hz until the next `.settled` (at most `limit` seconds) and returns its time.
    mutating func runUntilSettled(from: Double, limit: Double = 5) -> (time: Double, index: Int)? {
        var t = from
        while t < from + limit {
            t += 1.0 / 60
            for case let .settled(time, index) in update(now: t) { return (time, index) }
        }
        return nil
    }

    /// The card showing the selected page, i.e. the one drawn last.
    var topCard: CardLayout? { layout().cards.last }
}

extension Array where Element == CarouselEvent {
    var releases: [(from: Int, to: Int, vx: Double)] {
        compactMap { if case let .release(_, vx, _, from, to) = $0 { return (from, to, vx) } else { return nil } }
    }
    var settledIndices: [Int] {
        compactMap { if case let .settled(_, index) = $0 { return index } else { return nil } }
    }
}
