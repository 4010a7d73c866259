import CarouselConfig
import CarouselCore
import CarouselEngine

/// A Wayland compositor's fullscreen windows and its seat (cage, weston, sway). The compositor
/// owns the devices and turns the screen: libinput is not opened, and touches arrive in
/// surface coordinates, already rotated.
///
/// Without `[[output]]` tables there is one window, on the compositor's choice of output. With
/// them, one window per named output (`wl_output`/xdg-output names, as `carouseld outputs`
/// lists them), fullscreen on it, and the same layouts as on KMS: mirror, independent, span.
/// A touch goes to the carousel of the window it went down on. A named output the compositor
/// does not have (yet), or that goes away, is waited for, its screen dark, and shown on when it
/// comes (as a KMS connector unplugged; for a kiosk whose TV is off at boot, not a failure).
package final class WaylandBackend: Backend {
    package let plan: ScreenPlan
    private let connection: WaylandConnection
    private let windows: [WaylandOutput]
    private let seat: WaylandSeat?
    private var targets: [TouchTarget] = []
    private weak var sink: InputSink?
    /// Lifts contacts that sent nothing for `touch_timeout`: the seat's own deadline.
    private var stuckTimer: LoopTimer?

    package init(_ shell: ShellSettings, config: CarouselConfig, loop: EventLoop) throws(DisplayError) {
        if shell.rotation != 0 {
            Log.warning("rotation = \(shell.rotation) is ignored under Wayland: the compositor turns the screen "
                        + "(cage -r, or transform= in the [output] section of weston.ini)")
        }
        connection = try WaylandConnection()
        plan = ScreenPlan.make(shell: shell, config: config)
        // The seat first: its devices are announced in the windows' start-up round trips.
        seat = connection.seat.map { WaylandSeat(proxy: $0) }
        var windows: [WaylandOutput] = []
        for screen in plan.screens {
            let output = connection.outputs.first { $0.name != nil && $0.name == screen.connector }
            windows.append(try WaylandOutput(connection: connection, output: output, named: screen.connector,
                                             watchesConnection: windows.isEmpty))
        }
        self.windows = windows
        for (index, window) in windows.enumerated() {
            seat?.add(surface: window.surface, settings: shell, screen: window.size ?? Size(width: 1280, height: 720))
            seat?.setScale(window.bufferScale, window: index)
            window.onScaleChanged = { [unowned self] scale in seat?.setScale(scale, window: index) }
        }
        windows.first?.afterDispatch = { [unowned self] in seat?.flushUnframed() }
        seat?.onActions = { [unowned self] window, actions in deliver(route(actions, window: window)) }
        stuckTimer = loop.timer("stuck touches") { [unowned self] now in
            deliver((seat?.expireStuckTouches(now: now) ?? []).flatMap { route([$0.action], window: $0.window) })
        }
        connection.onOutputsChanged = { [unowned self] in followOutputs() }
    }

    /// Named outputs that went are waited for, and those that came back are shown on again.
    private func followOutputs() {
        for (index, screen) in plan.screens.enumerated() {
            guard let name = screen.connector else { continue }
            if windows[index].follow(connection.outputs.first { $0.name == name }) {
                seat?.setSurface(windows[index].surface, window: index)
            }
        }
    }

    package var outputs: [DisplayOutput] { windows }

    package func plan(for shell: ShellSettings, config: CarouselConfig) -> ScreenPlan {
        ScreenPlan.make(shell: shell, config: config)
    }

    package func rotation(ofScreen index: Int) -> Int { 0 }

    package func startInput(_ request: InputRequest, sink: InputSink) {
        guard self.sink == nil else { return }
        self.sink = sink
        reconfigureInput(request)
        seat?.startupFinished()
    }

    /// The seat maps each window's touches onto its screen; `targets` says whose carousel that is.
    package func reconfigureInput(_ request: InputRequest) {
        targets = request.targets
        seat?.reconfigure(settings: request.settings, screens: request.targets.map(\.screen))
    }


    private func deliver(_ actions: [RoutedAction]) {
        if !actions.isEmpty { sink?.receive(actions) }
        stuckTimer?.schedule(at: seat?.nextStuckDeadline)
    }

    /// A window's actions for its carousel, touches moved to where the screen shows it (span).
    private func route(_ actions: [InputAction], window: Int) -> [RoutedAction] {
        guard let target = targets.indices.contains(window) ? targets[window] : targets.first else {
            return actions.map { (group: 0, action: $0) }
        }
        return actions.map { action in
            if case .touch(let frame) = action { return (group: target.group, action: .touch(target.toEngine(frame))) }
            return (group: target.group, action: action)
        }
    }
}
