import CarouselConfig
import CarouselCore
import CarouselEngine

/// Screens the kernel drives (DRM/KMS, or fbdev) and input from libinput's devices on the seat.
///
/// Without `[[output]]` tables, the screens are the connectors connected at start (several:
/// one carousel per the `layout`); fbdev always shows one. Input devices are opened once the
/// first frame is on screen, on a thread of their own: libinput opens every device of the seat
/// (seconds on a slow box) and the carousel keeps moving meanwhile. The context is then handed
/// to the loop, which alone uses it.
package final class KernelBackend: Backend {
    package let outputs: [DisplayOutput]
    package let plan: ScreenPlan
    private let kind: DisplayBackend
    package let input: InputBackend
    /// The process's one udev monitor and its master cards, for the screens and the input.
    private let devices = DeviceManager()

    package init(_ shell: ShellSettings, config: CarouselConfig, kind: DisplayBackend, loop: EventLoop) throws(DisplayError) {
        self.kind = kind
        input = LibinputInput(loop: loop, devices: devices)
        let plan = Self.plan(shell, config: config, kind: kind, connected: nil)
        var outputs: [DisplayOutput] = []
        for screen in plan.screens { outputs.append(try DisplaySupervisor(settings: screen.settings, backend: kind, devices: devices)) }
        self.plan = plan
        self.outputs = outputs
    }

    /// The screens to drive. Without tables on KMS: every connector in `connected`, or (nil)
    /// every connector connected now.
    private static func plan(_ shell: ShellSettings, config: CarouselConfig, kind: DisplayBackend,
                             connected: [String]?) -> ScreenPlan {
        guard kind != .fbdev else { return .single(shell, config: config, backendName: kind.rawValue) }
        let connected = shell.outputTables(config).isEmpty ? connected ?? DisplayOpener.connectedConnectors() : []
        return ScreenPlan.make(shell: shell, config: config, connected: connected)
    }

    /// The same rule as at start; without tables, the screens in use stay the ones found then.
    package func plan(for shell: ShellSettings, config: CarouselConfig) -> ScreenPlan {
        Self.plan(shell, config: config, kind: kind, connected: plan.screens.compactMap(\.connector))
    }

    package func rotation(ofScreen index: Int) -> Int { plan.screens[index].settings.rotation }

}

/// libinput's devices on the seat, opened when input starts.
private final class LibinputInput: InputBackend {
    private unowned let loop: EventLoop
    private var feed: LibinputFeed?

    private let devices: DeviceManager

    init(loop: EventLoop, devices: DeviceManager) { self.loop = loop; self.devices = devices }

    func start(_ request: InputRequest, sink: @escaping InputSink) {
        guard feed == nil else { return }
        feed = LibinputFeed(request, loop: loop, sink: sink, devices: devices)
    }

    func reconfigure(_ request: InputRequest) { feed?.reconfigure(request) }
}

/// libinput's devices, opened off the loop and then watched by it.
private final class LibinputFeed {
    package private(set) var source: InputSource?
    private var request: InputRequest
    private var opening: BackgroundTask<Result<InputSource, Error>>?
    private var watch: Watch?
    private unowned let loop: EventLoop
    private var delivery: InputDelivery!

    /// Devices that came or went while the seat's were being opened: given to the source then.
    private var devicesMeanwhile: [UdevMonitor.Event] = []

    package init(_ request: InputRequest, loop: EventLoop, sink: @escaping InputSink, devices: DeviceManager) {
        self.request = request; self.loop = loop
        delivery = InputDelivery(loop: loop, sink: sink, owner: self, expire: { owner, now in
            owner.source?.expireStuckTouches(now: now) ?? []
        }, nextDeadline: { $0.source?.nextStuckDeadline })
        let (settings, targets, routing) = (request.settings, request.targets, request.routing)
        // From before the seat's devices are listed: none that comes meanwhile is missed.
        do { try devices.listenForInput(self, on: loop) { $0.devicesChanged($1) } } catch {
            Log.error("watching input devices come and go: \(error)")
        }
        let opening = BackgroundTask<Result<InputSource, Error>>(name: "carouseld-input", loop: loop)
        self.opening = opening
        opening.start({ Result { try InputSource(settings: settings, targets: targets, routing: routing) } }) {
            [weak self] result in self?.opened(result)
        }
    }

    package func reconfigure(_ request: InputRequest) {
        self.request = request
        source?.reconfigure(settings: request.settings, targets: request.targets, routing: request.routing)
    }

    /// Input devices plugged or unplugged: libinput is given them, and what they queued is read.
    private func devicesChanged(_ events: [UdevMonitor.Event]) {
        guard let source else { return devicesMeanwhile += events }
        source.devicesChanged(events)
        delivery.deliver(source.dispatch())
    }

    private func opened(_ result: Result<InputSource, Error>) {
        opening = nil
        switch result {
        case .success(let source):
            self.source = source
            source.devicesChanged(devicesMeanwhile)
            devicesMeanwhile = []
            // The screens or the config may have changed while the devices were being opened.
            reconfigure(request)
            do {
                watch = try loop.watch(source.fd, name: "libinput", owner: self) { owner in
                    owner.source.map { owner.delivery.deliver($0.dispatch()) }
                }
            } catch {
                Log.error("watching input devices: \(error)")
            }
        case .failure(let error):
            Log.warning("\(error); running without touch, keyboard and pointer")
        }
    }
}
