import CarouselConfig
import CarouselCore
import CarouselEngine

/// Where the daemon's screens and input come from, as one unit, the way plymouth's renderer
/// plugins give both: KMS or fbdev screens with libinput's devices (`KernelBackend`), or a
/// Wayland compositor's window with its seat (`WaylandBackend`). The app above never asks
/// which one it has.
package protocol Backend: AnyObject {
    /// One output per screen of `plan`, in the plan's order.
    var outputs: [DisplayOutput] { get }
    /// The screens a config asks for, by the rule this backend started with. A reload
    /// compares it with the screens in use: screens change only at restart.
    var plan: ScreenPlan { get }
    func plan(for shell: ShellSettings, config: CarouselConfig) -> ScreenPlan
    /// The rotation carouseld applies to screen `index` of the plan: the configured one on KMS
    /// and fbdev, 0 where the compositor turns the screen.
    func rotation(ofScreen index: Int) -> Int
    /// The devices that go with these screens.
    var input: InputBackend { get }
}

/// What input needs to know: settings (switches, rotation, seat), where each screen's touches
/// go, and how devices find their screen.
package struct InputRequest {
    package var settings: ShellSettings
    package var targets: [TouchTarget]
    package var routing: TouchRouting

    package init(settings: ShellSettings, targets: [TouchTarget], routing: TouchRouting) {
        self.settings = settings; self.targets = targets; self.routing = routing
    }
}

/// Takes the actions of the backend's input devices, started by the loop (`InputDelivery`).
package typealias InputSink = ([RoutedAction]) -> Void

extension DisplayBackend {
    /// What `auto` means here and now.
    package var resolved: DisplayBackend {
        self == .auto && WaylandConnection.isOffered ? .wayland : self
    }
}

/// Opens the backend that `shell.backend` names (auto: Wayland where a compositor is offered,
/// else KMS, else fbdev).
package enum Backends {
    package static func open(_ shell: ShellSettings, config: CarouselConfig, loop: EventLoop) throws(DisplayError) -> Backend {
        let kind = shell.backend.resolved
        if kind == .wayland { return try WaylandBackend(shell, config: config, loop: loop) }
        return try KernelBackend(shell, config: config, kind: kind, loop: loop)
    }
}

extension ScreenPlan {
    /// One screen, whatever the tables say: for backends that show one window or framebuffer.
    package static func single(_ shell: ShellSettings, config: CarouselConfig, backendName: String) -> ScreenPlan {
        if !shell.outputs.isEmpty {
            Log.warning("[[output]] tables name KMS or Wayland outputs; the \(backendName) backend shows one screen")
        }
        var single = shell
        single.outputs = []
        return ScreenPlan.make(shell: single, config: config)
    }
}
