import CarouselConfig
import CarouselCore
import CarouselEngine

/// A Wayland compositor's fullscreen window and its seat (cage, weston, sway). The compositor
/// owns the devices and turns the screen: libinput is not opened, and touches arrive in
/// surface coordinates, already rotated.
package final class WaylandBackend: Backend {
    package let plan: ScreenPlan
    private let window: WaylandOutput
    private weak var sink: InputSink?
    package var onEnd: ((BackendEnd) -> Void)?

    package init(_ shell: ShellSettings, config: CarouselConfig, loop: EventLoop) throws(DisplayError) {
        if shell.rotation != 0 {
            Log.warning("rotation = \(shell.rotation) is ignored under Wayland: the compositor turns the screen "
                        + "(cage -r, or transform= in the [output] section of weston.ini)")
        }
        plan = .single(shell, config: config, backendName: DisplayBackend.wayland.rawValue)
        window = try WaylandOutput(connection: try WaylandConnection(), settings: shell)
        window.onEnd = { [unowned self] end in
            switch end {
            case .closed: onEnd?(.closed)
            case .failed(let error): onEnd?(.failed(error))
            }
        }
        window.seat?.onActions = { [unowned self] actions in sink?.receive(actions.map { (group: 0, action: $0) }) }
    }

    package var outputs: [DisplayOutput] { [window] }

    package func plan(for shell: ShellSettings, config: CarouselConfig) -> ScreenPlan {
        .single(shell, config: config, backendName: DisplayBackend.wayland.rawValue)
    }

    package func rotation(ofScreen index: Int) -> Int { 0 }

    package func startInput(_ request: InputRequest, sink: InputSink) {
        guard self.sink == nil else { return }
        self.sink = sink
        reconfigureInput(request)
        window.seat?.startupFinished()
    }

    /// The seat maps touches onto the window's surface (the one screen's target).
    package func reconfigureInput(_ request: InputRequest) {
        guard let screen = request.targets.first?.screen else { return }
        window.seat?.reconfigure(settings: request.settings, screen: screen)
    }

    package var nextStuckTouchDeadline: Double? { window.seat?.nextStuckDeadline }

    package func expireStuckTouches(now: Double) -> [RoutedAction] {
        (window.seat?.expireStuckTouches(now: now) ?? []).map { (group: 0, action: $0) }
    }
}
