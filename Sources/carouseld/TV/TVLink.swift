import CarouselCore

/// The TV on the other end of the HDMI cable, over CEC: carouseld sends it <Standby>, or
/// <Image View On> and <Active Source>, and asks for its power (`TVPowerPolling`). Everything
/// goes through the loop: transmits are queued, results and replies are read when the adapter's
/// descriptor is readable, so nothing waits for the bus (a message takes ~50 ms, a NACKed one
/// with its retries several hundred).
///
/// A TV that does not answer is no error: one warning, the power `unknown`, and the screen is
/// switched by KMS alone; when it answers again, one line says so.
final class TVLink {
    private let bus: CECBus
    private let time: TimeSource
    private(set) var power: TVPower = .unknown
    /// nil until the TV first answered or failed to; false after a failure (warned once).
    private(set) var isAnswering: Bool?
    private var polling = TVPowerPolling()
    /// The sequence number of the <Give Device Power Status> awaiting its answer.
    private var powerQuery: UInt32?
    /// Messages to the TV whose transmit result is awaited: only their acknowledgement says
    /// the TV is there (a broadcast such as <Active Source> is acknowledged by nobody in particular).
    private var toTV: Set<UInt32> = []
    private var pollTimer: LoopTimer?
    private var watch: Watch?
    /// Right after start the kernel is still claiming our logical address in the background
    /// (it polls the candidates on the bus), and refuses transmits (ENONET): what is asked
    /// meanwhile waits, until the address is there or `claimWait` has passed. nil afterwards.
    private var beforeClaim: (until: Double, work: [(TVLink) -> Void])?
    private var claimTimer: LoopTimer?
    /// The TV's reported power changed (status, state file, metrics).
    private let powerChanged: (TVPower) -> Void

    static let claimWait = 5.0

    init(bus: CECBus, loop: EventLoop, powerChanged: @escaping (TVPower) -> Void = { _ in }) throws {
        self.bus = bus; self.powerChanged = powerChanged
        time = loop.time
        beforeClaim = (time.now() + Self.claimWait, [])
        pollTimer = loop.timer("TV power status", owner: self) { owner, _ in owner.askPower() }
        claimTimer = loop.timer("CEC address claim", owner: self) { $0.claimChecked(now: $1) }
        if let fd = bus.fd { watch = try loop.watch(fd, name: "CEC \(bus.name)", owner: self) { $0.drain() } }
        pollTimer?.schedule(at: time.now())
    }

    var name: String { bus.name }

    /// <Standby> to the TV.
    func standby() {
        if waitingForClaim({ $0.standby() }) { return }
        send(.standby(from: me), "Standby")
        pollTimer?.schedule(at: polling.asked(.standby, at: time.now()))
    }

    /// <Image View On> to the TV, and <Active Source> with this connector's physical address
    /// to everyone, so the TV turns on and shows this input.
    func wake() {
        if waitingForClaim({ $0.wake() }) { return }
        let from = me
        send(.imageViewOn(from: from), "Image View On")
        let address = bus.physicalAddress()
        if address != PhysicalAddress.invalid { send(.activeSource(from: from, physicalAddress: address), "Active Source") }
        pollTimer?.schedule(at: polling.asked(.on, at: time.now()))
    }

    /// At stop: the last <Standby> must leave before the descriptor closes.
    func waitForTransmits(seconds: Double) { bus.waitForTransmits(seconds: seconds) }

    /// Reads every result and reply queued (the loop calls it when the descriptor is readable).
    func drain() {
        while let result = bus.receive() { handle(result) }
    }

    /// Our logical address, or Unregistered (15) while none is claimed: the kernel then still
    /// lets <Image View On> through to a TV that dropped hot-plug detect in standby.
    private var me: UInt8 { bus.logicalAddress() ?? CECMessage.broadcast }

    private func askPower() {
        if waitingForClaim({ $0.askPower() }) { return }
        do {
            let sequence = try bus.transmit(.giveDevicePowerStatus(from: me), awaiting: .reportPowerStatus)
            powerQuery = sequence
            toTV.insert(sequence)
            // The answer (or its absence) schedules the next question; should the kernel lose
            // it (its queue overflowed), the regular interval still comes.
            pollTimer?.schedule(at: time.now() + TVPowerPolling.interval)
        } catch {
            notAnswering("asking its power: \(error)")
            pollTimer?.schedule(at: polling.answered(nil, at: time.now()))
        }
    }

    /// True when `work` was kept for when the address is claimed (see `beforeClaim`).
    private func waitingForClaim(_ work: @escaping (TVLink) -> Void) -> Bool {
        guard var waiting = beforeClaim, bus.logicalAddress() == nil, time.now() < waiting.until else { return false }
        waiting.work.append(work)
        beforeClaim = waiting
        claimTimer?.schedule(at: time.now() + 0.2)
        return true
    }

    /// Runs what waited once the address is claimed (or the wait is over: then it goes from
    /// Unregistered, and a refusal is the one warning).
    private func claimChecked(now: Double) {
        guard let waiting = beforeClaim else { return }
        guard bus.logicalAddress() != nil || now >= waiting.until else {
            claimTimer?.schedule(at: now + 0.2)
            return
        }
        beforeClaim = nil
        for work in waiting.work { work(self) }
    }

    private func send(_ message: CECMessage, _ what: String) {
        do {
            let sequence = try bus.transmit(message, awaiting: nil)
            if message.destination == CECMessage.tv { toTV.insert(sequence) }
            Log.info("CEC \(bus.name): <\(what)> sent (\(message.shown))")
        } catch {
            notAnswering("<\(what)> not sent: \(error)")
        }
    }

    private func handle(_ result: CECResult) {
        switch result {
        case .acknowledged(let sequence):
            if toTV.remove(sequence) != nil { answered() }
        case .failed(let sequence, let status):
            guard toTV.remove(sequence) != nil else { return }
            notAnswering("no acknowledgement (tx status 0x\(String(status, radix: 16)))")
            if sequence == powerQuery { powerUnknown() }
        case .noReply(let sequence):
            toTV.remove(sequence)
            guard sequence == powerQuery else { return }
            notAnswering("no <Report Power Status>")
            powerUnknown()
        case .received(let sequence, let message):
            toTV.remove(sequence)
            guard let reported = message.reportedTVPower, let status = message.operands.first else { return }
            answered()
            if sequence == powerQuery { powerQuery = nil }
            pollTimer?.schedule(at: polling.answered(status, at: time.now()))
            setPower(reported)
        }
    }

    private func powerUnknown() {
        powerQuery = nil
        pollTimer?.schedule(at: polling.answered(nil, at: time.now()))
        setPower(.unknown)
    }

    private func setPower(_ new: TVPower) {
        guard new != power else { return }
        power = new
        Log.info("CEC \(bus.name): the TV reports \(new.rawValue)")
        powerChanged(new)
    }

    private func answered() {
        if isAnswering == false { Log.notice("CEC \(bus.name): the TV answers again") }
        isAnswering = true
    }

    private func notAnswering(_ why: String) {
        guard isAnswering != false else { return }
        isAnswering = false
        Log.warning("CEC \(bus.name): the TV (logical address 0) does not answer (\(why)); "
                    + "the screen is switched by KMS alone")
    }
}
