import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine
/// Where input goes. The backend's devices (libinput, or a compositor's seat) deliver actions
/// for a carousel; here:
/// - the touch that wakes a sleeping screen does nothing else, down to its lift;
/// - a synced carousel leaves the wall clock for `sync_resume` seconds;
/// - the rest goes to that carousel's engine.
/// Contacts that send nothing for `touch_timeout` are lifted by the input itself (its own timer).
final class InputRouter {
    private let carousels: Carousels
    private let backend: Backend
    private unowned let operations: Operations
    /// The touch that woke the screen is still down.
    private var wakingTouchDown = false

    init(carousels: Carousels, backend: Backend, operations: Operations, loop: EventLoop) {
        self.carousels = carousels; self.backend = backend; self.operations = operations
    }

    /// Opens the input devices (once): after the first frame, or at once when starting dark.
    func start(_ settings: ShellSettings) {
        backend.input.start(request(settings)) { [weak self] actions in self?.receive(actions) }
    }

    /// New settings or new screen sizes.
    func reconfigure(_ settings: ShellSettings) {
        backend.input.reconfigure(request(settings))
    }

    private func request(_ settings: ShellSettings) -> InputRequest {
        let (targets, routing) = carousels.touchTargets()
        return InputRequest(settings: settings, targets: targets, routing: routing)
    }

    func receive(_ actions: [RoutedAction]) {
        for (carousel, action) in actions { apply(action, toCarousel: carousel) }
    }

    private func apply(_ action: InputAction, toCarousel index: Int) {
        guard carousels.all.indices.contains(index) else { return }
        if operations.touchWakesScreen() || wakingTouchDown {
            // Until every finger has lifted, as the input counts them.
            if case .touch(let frame) = action { wakingTouchDown = frame.contactsDown > 0 }
            return
        }
        carousels.touched(index, now: carousels.time.now())
        // A key that pages is local input too: a person at the screen, as a finger is.
        carousels.all[index].updateEngine(cause: .touch) { $0.apply(action) }
    }
}
