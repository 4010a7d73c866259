/// What `TVLink` needs of a CEC adapter: `CECAdapter` on `/dev/cecN`, a fake in the tests.
protocol CECBus: AnyObject {
    /// "/dev/cec1", for the log.
    var name: String { get }
    /// The descriptor the loop watches for results and replies; nil for a fake.
    var fd: Int32? { get }
    /// carouseld's logical address now; nil while none is claimed (no TV connected, or the
    /// kernel still polling for a free one).
    func logicalAddress() -> UInt8?
    /// The address the TV's EDID gave this connector; `PhysicalAddress.invalid` while none.
    func physicalAddress() -> UInt16
    /// Queues `message` (the reply awaited, if any); returns its sequence number, or throws
    /// when the kernel refuses it (no address, queue full).
    func transmit(_ message: CECMessage, awaiting reply: CECMessage.Opcode?) throws -> UInt32
    /// The next result or reply the kernel has queued; nil when there is none.
    func receive() -> CECResult?
    /// At stop: waits up to `seconds` for what was queued to leave.
    func waitForTransmits(seconds: Double)
}

/// What comes back for a transmit (matched by its sequence number) or from another device.
enum CECResult: Equatable {
    /// Transmitted and acknowledged.
    case acknowledged(sequence: UInt32)
    /// Nobody acknowledged it (no device at the address) or the bus failed; `status` is the
    /// kernel's tx_status bits.
    case failed(sequence: UInt32, status: UInt8)
    /// The reply awaited, or (sequence 0) a message another device sent.
    case received(sequence: UInt32, CECMessage)
    /// No reply within the kernel's second, or a <Feature Abort>.
    case noReply(sequence: UInt32)
}
