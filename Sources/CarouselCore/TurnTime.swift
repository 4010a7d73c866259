/// The loop's time for one look at its timers, read from the fine clock at most once and only
/// when an answer needs it. Where the clock source has no vDSO (HPET, a VM under emulation) a
/// fine read is a system call and a hardware access; a turn driven by a display flip, with
/// every timer far off, needs none: the coarse clock, read from memory, already says that no
/// deadline has come.
struct TurnTime {
    private let time: TimeSource
    /// Every deadline after this is still to come (the coarse clock plus its lag).
    private let notBefore: Double
    private var fine: Double?

    init(_ time: TimeSource) {
        self.time = time
        notBefore = time.coarseNow() + time.coarseLag
    }

    /// The fine time, read on first use and the same for the rest of this look.
    mutating func now() -> Double {
        if let fine { return fine }
        let read = time.now()
        fine = read
        return read
    }

    /// Whether `deadline` has come; reads the fine clock only when the coarse one cannot tell.
    mutating func hasCome(_ deadline: Double) -> Bool {
        if fine == nil, deadline > notBefore { return false }
        return deadline <= now()
    }
}
