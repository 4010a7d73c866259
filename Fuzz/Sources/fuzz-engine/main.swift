@testable import CarouselEngine
import FuzzSupport

/// Random touch-frame streams into the engine. The first bytes choose the screen, the number of
/// pictures and a valid config; the rest is a stream of timestamped operations (finger down,
/// move, up, cancel, several fingers in one frame, clock ticks, paging, cancel-all, resize,
/// reconfigure). Then every finger leaves and 3 s of quiet follow at 60 Hz.
///
/// Invariants (a violation aborts, so libFuzzer keeps the input): the selected index is always a
/// valid picture, every layout value and deadline is finite, every event names a valid picture,
/// and after the quiet the strip is at rest on a whole page of the real copy.
///
/// Every config key is drawn from its whole valid range except the spring, kept to responses
/// that settle well within the 3 s (0.15-0.5 s, damping 0.5-1.3, as the random-stream unit
/// test), and the interval (off, or longer than the quiet so it cannot start inside it unnoticed).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var r = ByteReader(data, size)
    let viewport = Size(width: r.fine(100...3840).rounded(), height: r.fine(100...2160).rounded())
    let n = r.int(0...20)
    var c = CarouselConfig()
    c.cardWidth = r.byte() & 1 == 0 ? .fraction(max(0.01, r.unit(0...1))) : .pixels(r.fine(1...4096).rounded())
    c.cardHeight = r.byte() & 1 == 0 ? .fraction(max(0.01, r.unit(0...1))) : .pixels(r.fine(1...4096).rounded())
    c.spacing = r.fine(0...4096).rounded()
    c.cardsPerPage = r.int(1...16)
    c.emphasis.centerScale = r.unit(0.1...2)
    c.emphasis.sideScale = r.unit(0.1...2)
    c.emphasis.centerOpacity = r.unit(0...1)
    c.emphasis.sideOpacity = r.unit(0...1)
    c.gesture.springResponse = r.unit(0.15...0.5)
    c.gesture.springDamping = r.unit(0.5...1.3)
    c.gesture.touchSlop = r.unit(0...200)
    c.gesture.flingVelocity = r.fine(1...100_000)
    c.gesture.pageThreshold = r.unit(0.05...0.95)
    c.gesture.maxPagesPerGesture = r.int(1...100)
    c.gesture.tapTimeout = r.unit(0.05...2)
    c.interval = r.byte() & 1 == 0 ? 0 : r.fine(3.5...86_400)
    if !c.validate().isEmpty { fuzzFailure("the fuzzer made an invalid config: \(c.validate())") }

    var t = r.fine(0...100_000)
    var engine = CarouselEngine(config: c, itemCount: n, viewport: viewport, now: t, startIndex: r.int(0...40))
    var down: [Int: (x: Double, y: Double)] = [:]
    var events: [CarouselEvent] = []
    // `what` is built only on a failure, and each card is tested without an array of its values:
    // the check runs after every step, and allocations under ASan cost more than the engine.
    func check(_ what: @autoclosure () -> String) {
        if n > 0 ? !(0..<n).contains(engine.selectedIndex) : engine.selectedIndex != 0 {
            fuzzFailure("\(what()): selected index \(engine.selectedIndex) of \(n)")
        }
        let layout = engine.layout()
        for card in layout.cards {
            let finite = card.x.isFinite && card.y.isFinite && card.width.isFinite && card.height.isFinite
                && card.scale.isFinite && card.opacity.isFinite
            if !finite || !(0..<engine.itemCount).contains(card.index) || !(0...1).contains(card.opacity) {
                fuzzFailure("\(what()): card \(card)")
            }
        }
        if !(layout.selectedPage >= 0 && (layout.pageCount == 0 || layout.selectedPage < layout.pageCount)) {
            fuzzFailure("\(what()): page \(layout.selectedPage) of \(layout.pageCount)")
        }
        if let d = engine.nextDeadline, !d.isFinite { fuzzFailure("\(what()): deadline \(d)") }
        if !engine.state().position.isFinite { fuzzFailure("\(what()): position \(engine.state().position)") }
    }
    func point() -> (Double, Double) {
        // Mostly on the screen, sometimes far off it.
        let far = r.byte() < 16
        let range = far ? -20_000.0...20_000.0 : -50.0...(viewport.width + 50)
        return (r.fine(range), r.unit(0...viewport.height))
    }

    var steps = 0
    while !r.isAtEnd && steps < 2000 {
        steps += 1
        let op = r.byte()
        let dt = r.byte()
        // 0-30 ms in fine steps (typical touch rates), or up to about 2 s.
        t += dt < 200 ? Double(dt) * 0.00015 : Double(dt - 199) * 0.035
        let slot = Int(op >> 5) % 4
        switch op & 0x1F {
        case 0...4:
            if down[slot] == nil {
                let p = point(); down[slot] = p
                events += engine.handle(TouchFrame(time: t, samples: [TouchSample(slot: slot, phase: .down, x: p.0, y: p.1)],
                                                   contactsDown: down.count))
            }
        case 5...14:
            if let p = down[slot] {
                let scale = [2.0, 60, 600, 5000][Int(r.byte() & 3)]
                let moved = (p.x + r.unit(-1...1) * scale, p.y + r.unit(-20...20))
                down[slot] = moved
                events += engine.handle(TouchFrame(time: t, samples: [TouchSample(slot: slot, phase: .move, x: moved.0, y: moved.1)],
                                                   contactsDown: down.count))
            }
        case 15...18:
            if let p = down[slot] {
                down[slot] = nil
                let phase: TouchPhase = op & 0x1F == 18 ? .cancel : .up
                events += engine.handle(TouchFrame(time: t, samples: [TouchSample(slot: slot, phase: phase, x: p.x, y: p.y)],
                                                   contactsDown: down.count))
            }
        case 19...23:
            events += engine.update(now: t)
        case 24:
            events += engine.page(by: r.int(0...8) - 4, now: t)
        case 25:
            events += engine.cancelTouches(now: t)
            down.removeAll()
        case 26:
            engine.resize(Size(width: r.fine(100...3840).rounded(), height: viewport.height))
        case 27:
            let keep = n > 0 && r.byte() & 1 == 0 ? r.int(0...(n - 1)) : nil
            engine.reconfigure(c, itemCount: n, keepIndex: keep, now: t)
        default:
            // Several fingers in one frame: new ones go down, known ones move or lift.
            var samples: [TouchSample] = []
            for s in 0..<4 where r.byte() & 1 == 0 {
                if let p = down[s] {
                    if r.byte() & 1 == 0 {
                        down[s] = nil
                        samples.append(TouchSample(slot: s, phase: .up, x: p.x, y: p.y))
                    } else {
                        let moved = (p.x + r.unit(-100...100), p.y)
                        down[s] = moved
                        samples.append(TouchSample(slot: s, phase: .move, x: moved.0, y: moved.1))
                    }
                } else {
                    let p = point(); down[s] = p
                    samples.append(TouchSample(slot: s, phase: .down, x: p.0, y: p.1))
                }
            }
            events += engine.handle(TouchFrame(time: t, samples: samples, contactsDown: down.count))
        }
        check("after step \(steps)")
    }

    // Every finger leaves, then 3 s of quiet at 60 Hz (another 3 s if the slideshow was due in it).
    for (left, (slot, p)) in down.sorted(by: { $0.key < $1.key }).enumerated() {
        t += 0.01
        events += engine.handle(TouchFrame(time: t, samples: [TouchSample(slot: slot, phase: .up, x: p.x, y: p.y)],
                                           contactsDown: down.count - left - 1))
    }
    func quiet(from start: Double) {
        var frame = 1
        while Double(frame) / 60 < 3 {
            events += engine.update(now: start + Double(frame) / 60)
            frame += 1
        }
        events += engine.update(now: start + 3)
        check("quiet")
    }
    let deadline = engine.nextDeadline
    quiet(from: t)
    if engine.isMoving, let d = deadline, d <= t + 3 { quiet(from: t + 3) }

    if engine.isMoving { fuzzFailure("still moving after the quiet (\(n) pictures)") }
    if n > 0 {
        let strip = Strip(itemCount: n, cardsPerPage: c.cardsPerPage)
        let position = engine.state().position
        let page = strip.nearestPage(position)
        if position != strip.anchor(ofPage: page) { fuzzFailure("at rest on \(position), not on a whole page") }
        if !strip.realPages.contains(page) { fuzzFailure("at rest on page \(page), outside the real copy") }
        if engine.selectedIndex != strip.firstItem(ofPage: page) {
            fuzzFailure("selected \(engine.selectedIndex) but resting on page \(page)")
        }
    }
    for event in events {
        switch event {
        case let .release(time, vx, vy, from, to):
            if !(time.isFinite && vx.isFinite && vy.isFinite) || !(0..<n).contains(from) || !(0..<n).contains(to) {
                fuzzFailure("event \(event)")
            }
        case let .tap(time, index), let .activated(time, index), let .settled(time, index):
            if !time.isFinite || !(0..<n).contains(index) { fuzzFailure("event \(event) with \(n) pictures") }
        }
    }
    return 0
}

runLibFuzzer(fuzz)
