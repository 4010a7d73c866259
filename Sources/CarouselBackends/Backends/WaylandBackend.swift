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
    private let seatInput: WaylandInput
    private var connectionWatch: Watch?

    package init(_ shell: ShellSettings, config: CarouselConfig, loop: EventLoop) throws(DisplayError) {
        if shell.rotation != 0 {
            Log.warning("rotation = \(shell.rotation) is ignored under Wayland: the compositor turns the screen "
                        + "(cage -r, or transform= in the [output] section of weston.ini)")
        }
        connection = try WaylandConnection()
        plan = ScreenPlan.make(shell: shell, config: config)
        // The seat first: its devices are announced in the windows' start-up round trips.
        let seat = connection.seat.map { WaylandSeat(proxy: $0) }
        var windows: [WaylandOutput] = []
        for screen in plan.screens {
            let output = connection.outputs.first { $0.name != nil && $0.name == screen.connector }
            windows.append(try WaylandOutput(connection: connection, output: output, named: screen.connector))
        }
        self.windows = windows
        for window in windows {
            seat?.add(surface: window.surface, settings: shell, screen: window.size ?? Size(width: 1280, height: 720))
        }
        seatInput = WaylandInput(seat: seat, loop: loop)
        connection.startupFinished()
        do {
            connectionWatch = try loop.watch(connection.fd, name: "Wayland", owner: self) { $0.dispatch() }
        } catch {
            throw .compositor("watching the connection: \(error)")
        }
    }

    package var input: InputBackend { seatInput }

    /// The compositor's events, for every window and the seat, then what they made: outputs
    /// followed, each window's scale given to the seat, the seat's actions delivered.
    private func dispatch() {
        do throws(DisplayError) {
            try connection.dispatch()
        } catch {
            connectionWatch = nil
            windows.first?.connectionFailed(error)
            return
        }
        if connection.takeOutputsChanged() { followOutputs() }
        for (index, window) in windows.enumerated() { seatInput.seat?.setScale(window.bufferScale, window: index) }
        seatInput.deliverTaken()
    }

    /// Each window named for an output follows it: one that went waits, one that came is shown on.
    private func followOutputs() {
        for (index, screen) in plan.screens.enumerated() {
            guard let name = screen.connector else { continue }
            if windows[index].follow(connection.outputs.first { $0.name == name }) {
                seatInput.seat?.setSurface(windows[index].surface, window: index)
            }
        }
    }

    package var outputs: [DisplayOutput] { windows }

    package func plan(for shell: ShellSettings, config: CarouselConfig) -> ScreenPlan {
        ScreenPlan.make(shell: shell, config: config)
    }

    package func rotation(ofScreen index: Int) -> Int { 0 }
}

/// The compositor's seat as the daemon's input: each window's actions routed to its carousel.
private final class WaylandInput: InputBackend {
    let seat: WaylandSeat?
    private unowned let loop: EventLoop
    private var targets: [TouchTarget] = []
    private var delivery: InputDelivery?

    init(seat: WaylandSeat?, loop: EventLoop) { self.seat = seat; self.loop = loop }

    func start(_ request: InputRequest, sink: @escaping InputSink) {
        guard delivery == nil else { return }
        delivery = InputDelivery(loop: loop, sink: sink, owner: self, expire: { owner, now in
            owner.routed(owner.seat?.expireStuckTouches(now: now) ?? [])
        }, nextDeadline: { $0.seat?.nextStuckDeadline })
        reconfigure(request)
        seat?.startupFinished()
    }

    /// The seat maps each window's touches onto its screen; `targets` says whose carousel that is.
    func reconfigure(_ request: InputRequest) {
        targets = request.targets
        seat?.reconfigure(settings: request.settings, screens: request.targets.map(\.screen))
    }

    /// What the last dispatch made, to the carousels (none before input starts).
    func deliverTaken() {
        let taken = seat?.takeActions() ?? []
        guard let delivery else { return }
        delivery.deliver(routed(taken))
    }

    /// Each window's action for its carousel (`TouchTarget.route`).
    private func routed(_ actions: [(window: Int, action: InputAction)]) -> [RoutedAction] {
        actions.map { window, action in
            guard let target = targets.indices.contains(window) ? targets[window] : targets.first else {
                return (carousel: 0, action: action)
            }
            return target.route(action)
        }
    }
}
