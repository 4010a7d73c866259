/// The TV's power as it last reported it over CEC: `tv` in `ctl status` and `state.json`, and
/// `carouseld_tv_power` in the metrics.
enum TVPower: String, Sendable, Equatable {
    case on, standby, unknown

    /// <Report Power Status>'s operand: 0 on, 1 standby, 2 in transition standby→on, 3 in
    /// transition on→standby. A TV in transition has accepted the change: it counts as where it
    /// goes (the status says what the TV is doing, not what it shows this second), and is asked
    /// again until it arrives (`TVPowerPolling`).
    init(reportedStatus: UInt8) {
        switch reportedStatus {
        case 0, 2: self = .on
        case 1, 3: self = .standby
        default: self = .unknown
        }
    }

    /// True for the two transition values: the TV is asked again soon.
    static func isTransition(_ reportedStatus: UInt8) -> Bool { reportedStatus == 2 || reportedStatus == 3 }

    /// The gauge: 1 on, 0 standby, -1 unknown (no answer, no CEC). A value rather than an absent
    /// series, so "the TV stopped answering" shows in a graph and can be alerted on.
    var metricValue: Double {
        switch self {
        case .on: 1
        case .standby: 0
        case .unknown: -1
        }
    }
}
