/// When to ask the TV for its power (<Give Device Power Status>). Right after carouseld asked
/// it to change, every second until it reports the change or `settleLimit` passes (a TV takes
/// a few seconds, and says so with the transition values); otherwise every `interval`, so a TV
/// switched by its own remote shows in the status too. Pure: times are passed in.
struct TVPowerPolling: Sendable, Equatable {
    static let settleStep = 1.0
    static let settleLimit = 30.0
    static let interval = 60.0

    /// What carouseld asked the TV for, and until when it waits for it.
    private(set) var awaited: (power: TVPower, until: Double)?

    static func == (a: Self, b: Self) -> Bool { a.awaited?.power == b.awaited?.power && a.awaited?.until == b.awaited?.until }

    /// carouseld just sent <Standby> or <Image View On>: the first question a second later.
    mutating func asked(_ power: TVPower, at now: Double) -> Double {
        awaited = (power, now + Self.settleLimit)
        return now + Self.settleStep
    }

    /// The TV answered `status` (nil: it did not answer) at `now`: when to ask next. A TV that
    /// does not answer is asked at the regular interval only, not flooded every second.
    mutating func answered(_ status: UInt8?, at now: Double) -> Double {
        guard let status, let awaited, now < awaited.until,
              TVPower.isTransition(status) || TVPower(reportedStatus: status) != awaited.power else {
            awaited = nil
            return now + Self.interval
        }
        // Still on its way: ask again soon, until the limit.
        return now + Self.settleStep
    }
}
