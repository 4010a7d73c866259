import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine

/// `carouseld replay`: a libinput recording through the daemon's own input path
/// (`InputTranslator`) and engine (`CarouselEngine.apply`), on a 60 Hz display clock.
///
/// Time is the recording's. Frames tick at t0 + k/60 like page flips; each recorded SYN_REPORT
/// is applied at its kernel timestamp between ticks. When the recording ends its devices are
/// removed (as `libinput replay` does when it exits), then the clock runs until the strip has
/// settled and `tail` seconds more.
struct Replay {
    static let frameRate = 60.0
    /// Seconds shown after the strip comes to rest.
    static let tail = 0.25
    /// Gives up on a strip that never settles (an engine bug) this long after the last event.
    static let maxSettleTime = 30.0

    var config: CarouselConfig
    /// Rotation and which kinds of device count, as on the daemon.
    var shell = ShellSettings()
    var screen: Size
    var itemCount: Int
    /// Per-picture auto-advance intervals from the playlist (`#EXTINF`).
    var itemDurations: [Double?] = []

    /// One engine event as a JSON line, in order.
    typealias Emit = (String) throws -> Void
    /// Frame number, time and layout of each 60 Hz frame.
    typealias FrameSink = (Int, Double, FrameLayout) throws -> Void

    /// `carouseld replay` itself: reads the file at `path` and emits its events.
    func run(path: String, emit: Emit, frames: FrameSink? = nil) throws {
        try run(RecordingParser.load(path: path), emit: emit, frames: frames)
    }

    /// What `carouseld replay` prints for the file at `path`.
    func lines(path: String, frames: FrameSink? = nil) throws -> [String] {
        var lines: [String] = []
        try run(path: path, emit: { lines.append($0) }, frames: frames)
        return lines
    }

    func run(_ recording: Recording, emit: Emit, frames: FrameSink? = nil) throws {
        let mapping = PanelMapping(screen: screen, rotation: shell.rotation)
        var decoders = try recording.devices.enumerated().map {
            try EvdevDecoder(id: $0.offset, device: $0.element, panel: mapping.panel, path: recording.path)
        }
        // Every device's frames in time order; a stable sort keeps each device's own order.
        let timeline = recording.devices.enumerated()
            .flatMap { d in d.element.frames.map { (device: d.offset, frame: $0) } }
            .enumerated().sorted { ($0.element.frame.time, $0.offset) < ($1.element.frame.time, $1.offset) }
            .map(\.element)
        let t0 = timeline.first?.frame.time ?? 0
        let tEnd = timeline.last?.frame.time ?? t0

        var translator = InputTranslator(settings: shell, screen: screen, announceDevices: false)
        var engine = CarouselEngine(config: config, itemCount: itemCount, viewport: screen, now: t0,
                                    itemDurations: itemDurations)
        var seat = SeatSlots()
        var tick = 0
        func report(_ events: [CarouselEvent]) throws { for e in events { try emit(EventReport.json(e)) } }
        func apply(_ batch: [DeviceEvent]) throws {
            for action in translator.translate(batch) { try report(engine.apply(action)) }
        }
        /// Renders every frame due before `t` (an input at the same instant as a flip comes first).
        func runClock(until t: Double) throws {
            while true {
                let now = t0 + Double(tick) / Self.frameRate
                guard now < t else { return }
                try report(engine.update(now: now))
                try frames?(tick, now, engine.layout())
                tick += 1
            }
        }

        try apply(decoders.map(\.added))
        translator.startupFinished()
        for item in timeline {
            try runClock(until: item.frame.time)
            try apply(decoders[item.device].decode(item.frame, seat: &seat))
        }
        try apply(decoders.map { .removed(device: $0.id, time: tEnd) })

        var restingSince: Double? = nil
        while true {
            let now = t0 + Double(tick) / Self.frameRate
            try runClock(until: now + 1e-9)
            if engine.isMoving { restingSince = nil } else if restingSince == nil { restingSince = now }
            if let since = restingSince, now >= since + Self.tail, now >= tEnd { break }
            if now > tEnd + Self.maxSettleTime {
                Log.warning("replay: the strip was still moving \(Int(Self.maxSettleTime)) s after the recording ended; stopped")
                break
            }
        }
    }
}
