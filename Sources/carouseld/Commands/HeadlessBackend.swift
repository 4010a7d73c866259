import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels

/// One screen in memory whose flips complete a refresh after each commit, on the loop's own
/// timer, and input the bench feeds itself: the daemon as it runs, without a display. For
/// `carouseld bench --loop-gap`, which measures the loop on the host (under TCG everything
/// runs about 20 times slower, so a 50 ms bound means nothing there).
final class HeadlessBackend: Backend {
    let plan: ScreenPlan
    private let screen: HeadlessOutput
    let feed = HeadlessInput()

    init(_ shell: ShellSettings, config: CarouselConfig, width: Int, height: Int, loop: EventLoop) {
        plan = .single(shell, config: config, backendName: "headless")
        screen = HeadlessOutput(width: width, height: height, loop: loop)
    }

    var outputs: [DisplayOutput] { [screen] }
    func plan(for shell: ShellSettings, config: CarouselConfig) -> ScreenPlan { plan }
    func rotation(ofScreen index: Int) -> Int { 0 }
    var input: InputBackend { feed }
}

/// Input the bench feeds itself: what it sends goes straight to the sink.
final class HeadlessInput: InputBackend {
    private(set) var sink: InputSink?
    func start(_ request: InputRequest, sink: @escaping InputSink) { self.sink = sink }
    func reconfigure(_ request: InputRequest) {}
}

/// A 60 Hz screen in memory: a commit is visible one refresh later.
private final class HeadlessOutput: DisplayOutput {
    var ladder = FrameLadder()
    private let width: Int, height: Int
    private let memory: UnsafeMutableRawPointer
    private var flip: LoopTimer?
    private var pending = false
    private var events: OutputEventSink?

    init(width: Int, height: Int, loop: EventLoop) {
        (self.width, self.height) = (width, height)
        memory = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 64)
        memory.initializeMemory(as: UInt32.self, repeating: 0, count: width * height)
        flip = loop.timer("headless flip", owner: self) { owner, now in
            owner.pending = false
            owner.events?.emit(.presented(at: now))
        }
    }

    deinit { memory.deallocate() }

    var summary: String { "headless \(width)x\(height)@60" }
    var size: Size? { Size(width: Double(width), height: Double(height)) }
    var isReady: Bool { !pending }
    var refreshInterval: Double { 1.0 / 60 }
    var devicePath: String { "headless" }
    var isFirmwareFramebuffer: Bool { false }
    func attach(to loop: EventLoop, events: @escaping (OutputEvent) -> Void) throws {
        self.events = OutputEventSink(loop: loop, handler: events)
    }
    func detach() { events = nil }
    func restore() {}

    func acquire() throws(DisplayError) -> PixelBuffer {
        PixelBuffer(base: memory, width: width, height: height, stride: width * 4)
    }

    func commit(_ state: FrameState, _ mode: CommitMode) throws(DisplayError) -> CommitResult {
        if !state.cards.isEmpty { return .compose(.noOverlayPlanes) }
        guard mode == .apply, state.power == .on, state.primary != nil else { return .accepted }
        pending = true
        flip?.schedule(at: MonotonicClock.now() + refreshInterval)
        return .accepted
    }
}
