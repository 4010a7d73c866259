import CarouselCore
import CarouselPixels

/// Which way an output's frames go, each way said once per ladder (a reload makes a new one):
/// panned, the cards on overlay planes, or composed on the CPU for a reason. A page change that
/// scales its cards alternates between the last two every few frames; the log must not.
package struct FramePathLog {
    private var said: Set<ComposeReason.Kind> = []
    private var saidPlanes = false

    /// Start-up's moments and outputs without planes are not worth the log.
    private static let silent: Set<ComposeReason.Kind> = [.cardNotDecoded, .notLit, .noOverlayPlanes, .cannotPan]

    /// True when it was said (the first time for its kind).
    @discardableResult
    package mutating func composing(_ reason: ComposeReason, on name: String) -> Bool {
        guard !Self.silent.contains(reason.kind), said.insert(reason.kind).inserted else { return false }
        Log.info("\(name): composing frames on the CPU: \(reason)")
        return true
    }

    private var saidPanning = false

    /// Said once per reload, with the window's size.
    @discardableResult
    package mutating func panning(_ window: PanWindow, on name: String) -> Bool {
        Self.sayOnce(&saidPanning,
                     "\(name): the strip pans in the display engine (a \(window.width)x\(Int(window.layout.viewport.height)) window, drawn at rest)")
    }

    @discardableResult
    package mutating func onPlanes(_ cards: Int, on name: String) -> Bool {
        Self.sayOnce(&saidPlanes, "\(name): cards on overlay planes (\(cards) in this frame), background and dots on the primary plane")
    }

    /// Logs `line` unless `said`, and marks it said; true when it was logged. The line is made
    /// only then: these are asked every frame.
    private static func sayOnce(_ said: inout Bool, _ line: @autoclosure () -> String) -> Bool {
        guard !said else { return false }
        said = true
        Log.info(line())
        return true
    }
}
