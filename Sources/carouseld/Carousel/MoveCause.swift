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
