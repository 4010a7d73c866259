/// A moment on both clocks: the loop's monotonic one (durations, immune to clock steps) and the
/// wall clock (when, for the record).
struct PlayInstant: Equatable, Sendable {
    var monotonic: Double
    var wall: Double
}

/// A picture that was on screen at rest and has left it.
struct FinishedShowing: Equatable, Sendable {
    /// The picture's path.
    var item: String
    var since: PlayInstant
    var until: PlayInstant
    var cause: MoveCause

    /// Seconds on screen, by the monotonic clock: a clock step during the showing (NTP's first
    /// sync, `date -s`) does not stretch or shrink it.
    var duration: Double { max(0, until.monotonic - since.monotonic) }
}

/// One carousel's showings, for proof of play; pure (times are passed in). A showing begins
/// when the strip comes to rest on a picture, and ends when the move that takes that picture
/// away begins. A move that springs back to the same picture (a drag let go too early, a tap on
/// the centre) ends nothing: the picture never left. Whether a move took the picture away is
/// known only when the strip rests again, so that is when the finished showing is returned.
struct ShowingTracker: Sendable {
    private(set) var current: (item: String, since: PlayInstant)?
    /// The first move since the strip came to rest, and what asked for it.
    private var departure: (cause: MoveCause, at: PlayInstant)?

    /// The strip started moving (or was cut) for `cause`. A move that begins while another runs
    /// (a finger catching the countdown's page change) does not replace the first: that one
    /// took the picture away.
    mutating func left(because cause: MoveCause, at instant: PlayInstant) {
        guard current != nil, departure == nil else { return }
        departure = (cause, instant)
    }

    /// The strip rests on `item`. Another picture than the one shown ends that showing (at the
    /// start of the move that took it, else now, for `cause`) and begins this one's; the same
    /// picture goes on being shown.
    mutating func rested(on item: String, at instant: PlayInstant, cause: MoveCause) -> FinishedShowing? {
        if let current, current.item == item {
            departure = nil
            return nil
        }
        let finished = finish(at: instant, cause: cause)
        current = (item, instant)
        return finished
    }

    /// Nothing is shown any more (the screens went dark, the daemon stops): the showing ends
    /// now, or when a move that was under way began.
    mutating func ended(at instant: PlayInstant, cause: MoveCause) -> FinishedShowing? {
        let finished = finish(at: instant, cause: cause)
        current = nil
        return finished
    }

    /// The current showing, ended; none if it ended the instant it began: a picture replaced
    /// within one handler (a synced carousel's new playlist, at once cut to the clock's
    /// picture) was never drawn.
    private mutating func finish(at instant: PlayInstant, cause: MoveCause) -> FinishedShowing? {
        defer { departure = nil }
        guard let current else { return nil }
        let end = departure ?? (cause, instant)
        guard end.at.monotonic > current.since.monotonic else { return nil }
        return FinishedShowing(item: current.item, since: current.since, until: end.at, cause: end.cause)
    }
}
