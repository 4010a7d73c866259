@testable import CarouselBackends
@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
@testable import carouseld

/// A backend for running the whole app on the host: screens that keep their frames
/// (`FakeOutput`, flips completed by the test) and a touchscreen the test scripts, whose events
/// go through the daemon's own `InputTranslator` (so `touch_timeout` is the real one).
final class FakeBackend: Backend, InputBackend {
    let screens: [FakeOutput]
    let plan: ScreenPlan
    private var translator: InputTranslator
    private unowned let loop: EventLoop
    /// Delivers as the real inputs do, lifting quiet contacts on its own timer.
    private var delivery: InputDelivery?
    private(set) var inputStarted = 0
    static let device = 7

    init(_ shell: ShellSettings, config: CarouselConfig, connectors: [String], loop: EventLoop) {
        plan = ScreenPlan.make(shell: shell, config: config, connected: connectors)
        screens = plan.screens.map { _ in FakeOutput() }
        translator = InputTranslator(settings: shell, screen: Size(width: 640, height: 400), announceDevices: true)
        _ = translator.translate([.added(device: Self.device, name: "Fake Touchscreen", capabilities: .touch)])
        self.loop = loop
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
        // As a device's read: a handler of the loop, which hands the actions on after it.
        loop.runAsHandler { deliver(translator.translate([event, .touchFrame(device: Self.device, time: time)])) }
    }
}
