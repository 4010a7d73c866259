@testable import CarouselBackends
@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
@testable import carouseld
import CLinux
import Glibc

/// A backend for running the whole app on the host: screens that keep their frames
/// (`FakeOutput`, flips completed by the test) and a touchscreen the test scripts, whose events
/// go through the daemon's own `InputTranslator` (so `touch_timeout` is the real one). The
/// touchscreen is a descriptor the loop watches, as a real device is: each report is read in a
/// turn of the loop.
final class FakeBackend: Backend, InputBackend {
    let screens: [FakeOutput]
    let plan: ScreenPlan
    private var translator: InputTranslator
    private unowned let loop: EventLoop
    /// Delivers as the real inputs do, lifting quiet contacts on its own timer.
    private var delivery: InputDelivery?
    private(set) var inputStarted = 0
    static let device = 7
    /// The scripted touchscreen: readable while reports wait in `reports`.
    private let readable = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
    private var reports: [[DeviceEvent]] = []
    private var watch: Watch?

    init(_ shell: ShellSettings, config: CarouselConfig, connectors: [String], loop: EventLoop) {
        plan = ScreenPlan.make(shell: shell, config: config, connected: connectors)
        screens = plan.screens.map { _ in FakeOutput() }
        translator = InputTranslator(settings: shell, screen: Size(width: 640, height: 400), announceDevices: true)
        _ = translator.translate([.added(device: Self.device, name: "Fake Touchscreen", capabilities: .touch)])
        self.loop = loop
        watch = try? loop.watch(readable, name: "fake touchscreen", owner: self) { $0.readReports() }
    }

    deinit { close(readable) }

    /// The loop's handler for the touchscreen: every report waiting, in order.
    private func readReports() {
        var count: UInt64 = 0
        _ = read(readable, &count, 8)
        let waiting = reports
        reports = []
        for report in waiting { deliver(translator.translate(report)) }
    }

    private func deliver(_ actions: [InputAction]) {
        delivery?.deliver(actions.map { (carousel: 0, action: $0) })
    }

    var outputs: [DisplayOutput] { screens }
    var input: InputBackend { self }

    func plan(for shell: ShellSettings, config: CarouselConfig) -> ScreenPlan {
        ScreenPlan.make(shell: shell, config: config, connected: plan.screens.compactMap(\.connector))
    }

    func rotation(ofScreen index: Int) -> Int { 0 }

    func start(_ request: InputRequest, sink: @escaping InputSink) {
        inputStarted += 1
        delivery = InputDelivery(loop: loop, sink: sink, owner: self, expire: { owner, now in
            owner.translator.expireStuckTouches(now: now).map { (carousel: 0, action: $0) }
        }, nextDeadline: { $0.translator.nextStuckDeadline })
        reconfigure(request)
    }

    func reconfigure(_ request: InputRequest) {
        guard let target = request.targets.first else { return }
        translator.reconfigure(settings: request.settings, screen: target.screen)
    }

    /// One touch frame of the scripted touchscreen: `phase` for `slot` at (x, y), at `time`.
    func touch(_ phase: TouchPhase, slot: Int = 0, x: Double = 320, y: Double = 200, at time: Double) {
        let event: DeviceEvent
        switch phase {
        case .down: event = .touchDown(device: Self.device, slot: slot, x: x, y: y, time: time)
        case .move: event = .touchMotion(device: Self.device, slot: slot, x: x, y: y, time: time)
        case .up: event = .touchUp(device: Self.device, slot: slot, time: time)
        case .cancel: event = .touchCancel(device: Self.device, slot: slot, time: time)
        }
        reports.append([event, .touchFrame(device: Self.device, time: time)])
        var one: UInt64 = 1
        _ = write(readable, &one, 8)
        // Read in a turn of the loop, as a DRM event or a device's report would be.
        _ = try? loop.runOnce(timeoutMilliseconds: 0)
    }
}
