import ArgumentParser
import CarouselCore
import CarouselEngine

/// Drives the engine with a scripted swipe and auto-advance and prints what it reports,
/// so the engine can be watched without a display.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Print the engine's events for a scripted swipe and auto-advance (no display needed).")

    @Option(help: "Number of pictures in the demo playlist.")
    var items = 5

    @Option(help: "Seconds to simulate.")
    var seconds = 12.0

    func run() throws {
        var config = CarouselConfig()
        config.interval = 4
        let viewport = Size(width: 1280, height: 800)
        var engine = CarouselEngine(config: config, itemCount: items, viewport: viewport, now: 0)
        var t = 0.0
        let frame = 1.0 / 60
        func report(_ events: [CarouselEvent]) { for e in events { print(formatted("%7.3f  ", t) + "\(e)") } }
        // A left swipe at t = 1 s: 300 px in 120 ms.
        while t < seconds {
            if t >= 1.0 && t < 1.0 + frame {
                for i in 0...8 {
                    let s = TouchSample(slot: 0, phase: i == 0 ? .down : .move, x: 900 - Double(i) * 37.5, y: 400)
                    report(engine.handle(TouchFrame(time: t + Double(i) * 0.015, samples: [s], contactsDown: 1)))
                }
                t += 0.125
                report(engine.handle(TouchFrame(time: t, samples: [TouchSample(slot: 0, phase: .up, x: 600, y: 400)], contactsDown: 0)))
            }
            report(engine.update(now: t))
            t += frame
        }
        print("selected \(engine.layout().selectedIndex) of \(items)")
    }
}
