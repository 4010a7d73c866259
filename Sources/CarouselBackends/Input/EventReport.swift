import CarouselEngine

/// How engine events are reported: one JSON object per line (`carouseld replay`) and one
/// journal line (the daemon). Both round the same way: times to the microsecond (the kernel's
/// resolution), velocities to 0.1 px/s.
package enum EventReport {
    package static func json(_ event: CarouselEvent) -> String {
        let fields: [(String, Double)]
        let name: String
        switch event {
        case let .release(time, vx, vy, from, to):
            name = "release"
            fields = [("t", seconds(time)), ("velocity_x", velocity(vx)), ("velocity_y", velocity(vy)),
                      ("from", Double(from)), ("to", Double(to))]
        case let .tap(time, index): name = "tap"; fields = [("t", seconds(time)), ("index", Double(index))]
        case let .activated(time, index): name = "activated"; fields = [("t", seconds(time)), ("index", Double(index))]
        case let .settled(time, index): name = "settled"; fields = [("t", seconds(time)), ("index", Double(index))]
        }
        // Sorted keys: the same events always print the same bytes. Every value is a number
        // except the event's name, which is one of four fixed words (nothing to escape).
        let members = (fields.map { ($0.0, number($0.1)) } + [("event", "\"\(name)\"")]).sorted { $0.0 < $1.0 }
        return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// JSON numbers as JSONSerialization wrote them: whole values without ".0".
    private static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
    }

    package static func logLine(_ event: CarouselEvent) -> String {
        switch event {
        case let .release(_, vx, vy, from, to):
            return "release velocity_x=\(velocity(vx)) velocity_y=\(velocity(vy)) px/s from \(from) to \(to)"
        case let .tap(_, index): return "tap: paging to \(index)"
        case let .activated(_, index): return "tap on the centre card \(index)"
        case let .settled(_, index): return "settled on \(index)"
        }
    }

    package static func seconds(_ t: Double) -> Double { clean((t * 1e6).rounded() / 1e6) }
    package static func velocity(_ v: Double) -> Double { clean((v * 10).rounded() / 10) }
    /// No "-0" in output, and nothing JSON cannot carry.
    private static func clean(_ v: Double) -> Double { v.isFinite ? v + 0.0 : 0 }
}
