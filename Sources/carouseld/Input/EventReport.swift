import CarouselEngine
import Foundation

/// How engine events are reported: one JSON object per line (`carouseld replay`) and one
/// journal line (the daemon). Both round the same way: times to the microsecond (the kernel's
/// resolution), velocities to 0.1 px/s.
enum EventReport {
    static func json(_ event: CarouselEvent) -> String {
        let object: [String: Any]
        switch event {
        case let .release(time, vx, vy, from, to):
            object = ["event": "release", "t": seconds(time), "velocity_x": velocity(vx), "velocity_y": velocity(vy),
                      "from": from, "to": to]
        case let .tap(time, index):
            object = ["event": "tap", "t": seconds(time), "index": index]
        case let .activated(time, index):
            object = ["event": "activated", "t": seconds(time), "index": index]
        case let .settled(time, index):
            object = ["event": "settled", "t": seconds(time), "index": index]
        }
        // Sorted keys: the same events always print the same bytes.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func logLine(_ event: CarouselEvent) -> String {
        switch event {
        case let .release(_, vx, vy, from, to):
            return "release velocity_x=\(velocity(vx)) velocity_y=\(velocity(vy)) px/s from \(from) to \(to)"
        case let .tap(_, index): return "tap: paging to \(index)"
        case let .activated(_, index): return "tap on the centre card \(index)"
        case let .settled(_, index): return "settled on \(index)"
        }
    }

    static func seconds(_ t: Double) -> Double { clean((t * 1e6).rounded() / 1e6) }
    static func velocity(_ v: Double) -> Double { clean((v * 10).rounded() / 10) }
    /// No "-0" in output, and nothing JSON cannot carry.
    private static func clean(_ v: Double) -> Double { v.isFinite ? v + 0.0 : 0 }
}
