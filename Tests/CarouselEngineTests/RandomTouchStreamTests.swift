import XCTest
@testable import CarouselEngine
import TestSupport

/// Property: after any touch stream plus 3 s of quiet, the strip rests exactly on a page of the
/// real copy, the selection is in range, and no layout value is NaN or infinite.
final class RandomTouchStreamTests: XCTestCase {
    /// How often each event kind occurred over all streams, to show the streams exercise them.
    private var seen: [String: Int] = [:]

    func testRandomStreamsAlwaysComeToRestOnAWholePage() {
        for seed in 0..<3000 as Range<UInt64> {
            var rng = SplitMix64(seed: seed)
            runStream(&rng, seed: seed)
        }
        print("random touch streams: events seen \(seen.sorted { $0.key < $1.key })")
        for (kind, least) in [("release", 200), ("tap", 10), ("activated", 50), ("settled", 500)] {
            XCTAssertGreaterThan(seen[kind, default: 0], least, "the streams rarely produce \(kind)")
        }
    }

    private func randomConfig(_ rng: inout SplitMix64, viewport: Size) -> CarouselConfig {
        var c = CarouselConfig()
        c.cardWidth = Bool.random(using: &rng) ? .fraction(.random(in: 0.2...1, using: &rng))
                                               : .pixels(.random(in: 40...viewport.width, using: &rng).rounded())
        c.cardHeight = .fraction(.random(in: 0.3...1, using: &rng))
        c.spacing = .random(in: 0...80, using: &rng).rounded()
        c.cardsPerPage = .random(in: 1...3, using: &rng)
        c.emphasis.centerScale = .random(in: 0.8...1.3, using: &rng)
        c.emphasis.sideScale = .random(in: 0.5...1, using: &rng)
        c.emphasis.sideOpacity = .random(in: 0...1, using: &rng)
        // Springs that settle well within the 3 s of quiet (slowest decay about 4.9/s).
        c.gesture.springResponse = .random(in: 0.15...0.5, using: &rng)
        c.gesture.springDamping = .random(in: 0.5...1.3, using: &rng)
        c.gesture.touchSlop = .random(in: 0...20, using: &rng)
        c.gesture.flingVelocity = .random(in: 50...3000, using: &rng)
        c.gesture.pageThreshold = .random(in: 0.05...0.95, using: &rng)
        c.gesture.maxPagesPerGesture = .random(in: 1...3, using: &rng)
        c.gesture.tapTimeout = .random(in: 0.05...0.5, using: &rng)
        // Auto-advance longer than the quiet period, so it cannot start after a settle in it.
        c.interval = Bool.random(using: &rng) ? 0 : .random(in: 3.5...10, using: &rng)
        XCTAssertEqual(c.validate(), [])
        return c
    }

    private func runStream(_ rng: inout SplitMix64, seed: UInt64) {
        let viewport = Size(width: .random(in: 200...1920, using: &rng).rounded(),
                            height: .random(in: 200...1080, using: &rng).rounded())
        let n = Int.random(in: 0...7, using: &rng)
        let config = randomConfig(&rng, viewport: viewport)
        var t = Double.random(in: 0...1000, using: &rng)
        var engine = CarouselEngine(config: config, itemCount: n, viewport: viewport, now: t,
                                    startIndex: .random(in: 0...8, using: &rng))
        var down: [Int: (x: Double, y: Double)] = [:]
        var events: [CarouselEvent] = []
        func point() -> (Double, Double) {
            (.random(in: -50...(viewport.width + 50), using: &rng), .random(in: 0...viewport.height, using: &rng))
        }
        for _ in 0..<Int.random(in: 1...40, using: &rng) {
            t += Bool.random(using: &rng) ? .random(in: 0.001...0.03, using: &rng) : .random(in: 0.03...0.8, using: &rng)
            let roll = Int.random(in: 0..<100, using: &rng)
            let slot = Int.random(in: 0...2, using: &rng)
            if roll < 20, down[slot] == nil {
                let (x, y) = point()
                down[slot] = (x, y)
                events += engine.handle(touch(t, .down, x, y, slot: slot, contactsDown: down.count))
            } else if roll < 60, let p = down[slot] {
                // Moves of every size: inside the slop, ordinary drags, whole-screen flings.
                let dx = Double.random(in: -1...1, using: &rng) * [5, 60, 600][Int.random(in: 0...2, using: &rng)]
                let moved = (p.x + dx, p.y + .random(in: -10...10, using: &rng))
                down[slot] = moved
                events += engine.handle(touch(t, .move, moved.0, moved.1, slot: slot, contactsDown: down.count))
            } else if roll < 75, let p = down[slot] {
                down[slot] = nil
                events += engine.handle(touch(t, roll < 72 ? .up : .cancel, p.x, p.y, slot: slot, contactsDown: down.count))
            } else if roll < 85 {
                events += engine.update(now: t)
            } else if roll < 92 {
                events += engine.page(by: .random(in: -2...2, using: &rng), now: t)
            } else if roll < 95 {
                events += engine.cancelTouches(now: t)
                down.removeAll()
            } else if roll < 97 {
                engine.resize(Size(width: .random(in: 200...1920, using: &rng).rounded(), height: viewport.height))
            } else if roll < 99 {
                engine.reconfigure(config, itemCount: n, keepIndex: n > 0 ? .random(in: 0..<n, using: &rng) : nil, now: t)
            } else {
                // Several fingers in one frame.
                let samples = (0...2).map { s -> TouchSample in
                    let p = down[s] ?? point()
                    let phase: TouchPhase = down[s] == nil ? .down : .move
                    down[s] = p
                    return TouchSample(slot: s, phase: phase, x: p.0 + 3, y: p.1)
                }
                events += engine.handle(TouchFrame(time: t, samples: samples, contactsDown: down.count))
            }
            checkLayout(engine, seed: seed)
        }
        // Every finger leaves, then 3 s of quiet at 60 Hz.
        for (left, (slot, p)) in down.sorted(by: { $0.key < $1.key }).enumerated() {
            t += 0.01
            events += engine.handle(touch(t, Bool.random(using: &rng) ? .up : .cancel, p.x, p.y, slot: slot,
                                          contactsDown: down.count - left - 1))
        }
        // The slideshow may legitimately start during the quiet if the strip already rested
        // untouched before it; then it gets another 3 s to finish.
        let deadline = engine.nextDeadline
        events += engine.run(from: t, to: t + 3)
        checkLayout(engine, seed: seed)
        if engine.isMoving, let d = deadline, d <= t + 3 {
            events += engine.run(from: t + 3, to: t + 6)
        }

        let strip = Strip(itemCount: n, cardsPerPage: config.cardsPerPage)
        let position = engine.state().position
        XCTAssertFalse(engine.isMoving, "seed \(seed)")
        if n > 0 {
            let page = strip.nearestPage(position)
            XCTAssertEqual(position, strip.anchor(ofPage: page), "seed \(seed): not on a whole page")
            XCTAssertTrue(strip.realPages.contains(page), "seed \(seed): resting outside the real copy")
            XCTAssertTrue((0..<n).contains(engine.selectedIndex), "seed \(seed)")
            XCTAssertEqual(engine.selectedIndex, strip.firstItem(ofPage: page), "seed \(seed)")
        } else {
            XCTAssertEqual(engine.selectedIndex, 0)
        }
        for event in events {
            seen[String("\(event)".prefix { $0 != "(" }), default: 0] += 1
            switch event {
            case let .release(time, vx, vy, from, to):
                XCTAssertTrue(time.isFinite && abs(vx) <= 8000 && abs(vy) <= 8000, "seed \(seed)")
                XCTAssertTrue((0..<n).contains(from) && (0..<n).contains(to), "seed \(seed)")
            case let .tap(_, index), let .activated(_, index), let .settled(_, index):
                XCTAssertTrue((0..<n).contains(index), "seed \(seed): \(event)")
            }
        }
    }

    private func checkLayout(_ engine: CarouselEngine, seed: UInt64) {
        let layout = engine.layout()
        for card in layout.cards {
            for v in [card.x, card.y, card.width, card.height, card.scale, card.opacity] {
                XCTAssertTrue(v.isFinite, "seed \(seed): \(card)")
            }
            XCTAssertTrue((0..<engine.itemCount).contains(card.index), "seed \(seed)")
            XCTAssertTrue((0...1).contains(card.opacity), "seed \(seed)")
        }
        XCTAssertTrue(layout.selectedPage >= 0 && (layout.pageCount == 0 || layout.selectedPage < layout.pageCount))
        if let deadline = engine.nextDeadline { XCTAssertTrue(deadline.isFinite, "seed \(seed)") }
    }
}
