import Foundation
import CLinux

/// A test touchscreen described as data, the way libinput's litest describes its devices.
package struct TestTouchscreen {
    package var name = "carousel test touchscreen"
    package var x = (min: 0, max: 4095, resolution: 16)
    package var y = (min: 0, max: 4095, resolution: 16)
    package var slots = 10
    /// INPUT_PROP_DIRECT: a touchscreen, not a touchpad.
    package var properties = [Int(INPUT_PROP_DIRECT)]

    package init() {}

    /// Device units for a position given in percent of the axis (like litest's percent coordinates).
    package func units(xPercent: Double) -> Int { Self.units(xPercent, x.min, x.max) }
    package func units(yPercent: Double) -> Int { Self.units(yPercent, y.min, y.max) }
    private static func units(_ pct: Double, _ lo: Int, _ hi: Int) -> Int {
        min(hi, lo + Int((pct / 100 * Double(hi - lo + 1)).rounded()))
    }
}

/// Writes `libinput record` YAML for touches on a `TestTouchscreen`, with positions in percent
/// of the screen and times in seconds. Each touch change is one evdev frame ending in SYN_REPORT.
package struct RecordingBuilder {
    package let device: TestTouchscreen
    package private(set) var frames: [(usec: Int, events: [(type: Int32, code: Int32, value: Int)])] = []
    private var nextTrackingID = 1
    private var trackingIDs: [Int: Int] = [:]

    package init(device: TestTouchscreen = TestTouchscreen()) { self.device = device }

    /// Fingers `slot` put down, moved or lifted together at time `t` (one SYN_REPORT).
    package mutating func frame(at t: Double, _ changes: [(slot: Int, change: Change)]) {
        var events: [(Int32, Int32, Int)] = []
        for (slot, change) in changes {
            events.append((Int32(EV_ABS), ABS_MT_SLOT, slot))
            switch change {
            case .down(let x, let y):
                trackingIDs[slot] = nextTrackingID; nextTrackingID += 1
                events += [(Int32(EV_ABS), ABS_MT_TRACKING_ID, trackingIDs[slot]!),
                           (Int32(EV_ABS), ABS_MT_POSITION_X, device.units(xPercent: x)),
                           (Int32(EV_ABS), ABS_MT_POSITION_Y, device.units(yPercent: y))]
            case .move(let x, let y):
                events += [(Int32(EV_ABS), ABS_MT_POSITION_X, device.units(xPercent: x)),
                           (Int32(EV_ABS), ABS_MT_POSITION_Y, device.units(yPercent: y))]
            case .up:
                trackingIDs[slot] = nil
                events.append((Int32(EV_ABS), ABS_MT_TRACKING_ID, -1))
            }
        }
        let touching = !trackingIDs.isEmpty
        events.append((Int32(EV_KEY), Int32(BTN_TOUCH), touching ? 1 : 0))
        events.append((Int32(EV_SYN), Int32(SYN_REPORT), 0))
        frames.append((Int((t * 1_000_000).rounded()), events.map { (type: $0.0, code: $0.1, value: $0.2) }))
    }

    package enum Change { case down(x: Double, y: Double), move(x: Double, y: Double), up }

    package mutating func down(_ slot: Int = 0, x: Double, y: Double, at t: Double) { frame(at: t, [(slot, .down(x: x, y: y))]) }
    package mutating func move(_ slot: Int = 0, x: Double, y: Double, at t: Double) { frame(at: t, [(slot, .move(x: x, y: y))]) }
    package mutating func up(_ slot: Int = 0, at t: Double) { frame(at: t, [(slot, .up)]) }

    /// A finger down at `from`, moved in straight steps every `interval` seconds to `to`, optionally
    /// held still for `rest` seconds, then lifted. Returns the time it lifts.
    @discardableResult
    package mutating func drag(_ slot: Int = 0, from: (x: Double, y: Double), to: (x: Double, y: Double),
                       start: Double, duration: Double, interval: Double = 0.008, rest: Double = 0) -> Double {
        down(slot, x: from.x, y: from.y, at: start)
        let steps = max(1, Int((duration / interval).rounded()))
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            move(slot, x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f, at: start + duration * f)
        }
        let end = start + duration + rest
        up(slot, at: end)
        return end
    }

    package func yaml() -> String {
        var l = ["version: 1", "ndevices: 1", "libinput:", "  version: 1.22.1", "system:", "  os: debian:12",
                 "devices:", "- node: /dev/input/event7", "  evdev:", "    name: \(device.name)",
                 "    id: [3, 4660, 22136, 1]", "    codes:", "      0: [0]", "      1: [\(BTN_TOUCH)]",
                 "      3: [0, 1, 47, 53, 54, 57]", "    absinfo:",
                 "      0: [\(device.x.min), \(device.x.max), 0, 0, \(device.x.resolution)]",
                 "      1: [\(device.y.min), \(device.y.max), 0, 0, \(device.y.resolution)]",
                 "      47: [0, \(device.slots - 1), 0, 0, 0]",
                 "      53: [\(device.x.min), \(device.x.max), 0, 0, \(device.x.resolution)]",
                 "      54: [\(device.y.min), \(device.y.max), 0, 0, \(device.y.resolution)]",
                 "      57: [0, 65535, 0, 0, 0]",
                 "    properties: \(device.properties)",
                 "  udev:", "    properties:", "    - ID_INPUT=1", "    - ID_INPUT_TOUCHSCREEN=1",
                 "  events:"]
        for frame in frames {
            l.append("  - evdev:")
            for e in frame.events {
                l.append("    - [\(frame.usec / 1_000_000), \(frame.usec % 1_000_000), \(e.type), \(e.code), \(e.value)]")
            }
        }
        return l.joined(separator: "\n") + "\n"
    }

    /// Writes the YAML to a fresh temporary file and returns its path.
    package func write(named name: String = "recording") throws -> String {
        try Self.write(yaml(), named: name)
    }

    package static func write(_ text: String, named name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("carouseld-tests-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("\(name)-\(UUID().uuidString).yml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
