import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine

/// What the parts of the daemon tell the rest: one type, handed out in one place
/// (`DaemonRunner+Events.swift`), so a reader finds who hears what there and nowhere else.
enum AppEvent {
    /// The carousel's first frame is on screen (the lead's is READY=1), with the picture the
    /// strip rests on then (nil: moving).
    case firstFrame(Carousel, at: Double, restingOn: Int?)
    /// An engine event, handed out after the tick that made it.
    case engine(Carousel, CarouselEvent)
    /// The strip, at rest until now, started moving (or was cut) at `time` on the engine's
    /// clock, for `cause`: where a showing ends, for proof of play.
    case leftRest(Carousel, MoveCause, at: Double)
    /// A new playlist or config is in, and the strip rests on picture `index`.
    case restsAfterSwap(Carousel, index: Int, MoveCause, at: Double)
    /// The carousel's screens changed size: touches map anew.
    case resized(Carousel)
    /// The output ended the daemon: the compositor closed the window, or was lost.
    case outputEnded(OutputEnd)
    /// The wall clock is believed from now: schedules, dayparts and syncs apply.
    case clockTrusted
    /// The screen schedule (or a touch, or `ctl screen`) switched the screens.
    case screensSwitched(on: Bool)
    /// A daypart begins: the carousels on the main playlist page to its pictures.
    case daypart(items: [PlaylistItem])
    /// The TV reported its power (CEC).
    case tvPower(TVPower)
    /// `ctl reload`.
    case reloadAsked
    /// The config's background load finished: the reload goes on in this turn.
    case configLoaded
    /// What the status line and state.json say changed.
    case statusChanged
}

/// The queue of app events: parts emit as things happen, and the events are handed out once the
/// current handler has returned, in order, never inside the emitter's own work. Events emitted
/// while the daemon is being put together wait until its root connects (`deliver(to:)`).
final class AppEvents {
    private let loop: EventLoop
    private var queued: [AppEvent] = []
    private var handle: ((AppEvent) -> Void)?

    init(loop: EventLoop) { self.loop = loop }

    func emit(_ event: AppEvent) {
        if queued.isEmpty, handle != nil { loop.post(to: self) { $0.drain() } }
        queued.append(event)
    }

    /// The composition root, once built, hears every event from here on (and those queued).
    func deliver(to handle: @escaping (AppEvent) -> Void) {
        self.handle = handle
        if !queued.isEmpty { loop.post(to: self) { $0.drain() } }
    }

    private func drain() {
        guard let handle else { return }
        while !queued.isEmpty {
            let event = queued.removeFirst()
            handle(event)
        }
    }
}

/// Why a carousel's strip left the picture it rested on, named by whoever asked for the move:
/// the proof-of-play record of that picture says it (`CAROUSELD_CAUSE`). The first five move the
/// strip; the last three end a showing without a move.
enum MoveCause: String, Sendable, CaseIterable, Codable {
    /// The carousel's own countdown (`interval`, #EXTINF).
    case auto
    /// A finger: a drag, a fling or a tap on a side card.
    case touch
    /// `carouseld ctl next`, `prev` or `goto`.
    case ctl
    /// `sync = "wallclock"`: the clock's next picture, or back to it after a touch.
    case sync
    /// A `[[playlist]]` window began.
    case daypart
    /// The screens went dark (the `[[screen]]` schedule or `ctl screen off`).
    case off
    /// The daemon stopped.
    case stop
    /// A reload took the picture out of the playlist (or put another in its place).
    case reload
}
