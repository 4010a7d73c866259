/// One HDMI-CEC message as the bus carries it: a header byte (initiator in the high nibble,
/// destination in the low), an opcode, operands. Pure: built and read here, sent by `CECAdapter`.
struct CECMessage: Equatable, Sendable {
    /// The opcodes carouseld sends or reads (HDMI 1.4b CEC, table 8 and on).
    enum Opcode: UInt8, Sendable {
        case imageViewOn = 0x04
        case standby = 0x36
        case activeSource = 0x82
        case giveDevicePowerStatus = 0x8F
        case reportPowerStatus = 0x90
        case featureAbort = 0x00
    }

    /// Logical addresses: 0 is always the TV, 15 is everyone (broadcast) or "unregistered".
    static let tv: UInt8 = 0
    static let broadcast: UInt8 = 15

    var bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }

    init(from initiator: UInt8, to destination: UInt8, _ opcode: Opcode, _ operands: [UInt8] = []) {
        bytes = [(initiator & 0xF) << 4 | (destination & 0xF), opcode.rawValue] + operands
    }

    var initiator: UInt8 { (bytes.first ?? 0xFF) >> 4 }
    var destination: UInt8 { (bytes.first ?? 0xFF) & 0xF }
    var opcode: UInt8? { bytes.count > 1 ? bytes[1] : nil }
    var operands: ArraySlice<UInt8> { bytes.dropFirst(2) }

    // MARK: - The messages carouseld sends

    /// <Standby> to the TV: the TV (and, by CEC's rules, nothing else) goes to standby.
    static func standby(from me: UInt8) -> CECMessage { CECMessage(from: me, to: tv, .standby) }

    /// <Image View On>: a TV in standby turns on (and shows its current input).
    static func imageViewOn(from me: UInt8) -> CECMessage { CECMessage(from: me, to: tv, .imageViewOn) }

    /// <Active Source>, broadcast: "show the input at this physical address", so a TV that was
    /// on another input switches to ours.
    static func activeSource(from me: UInt8, physicalAddress: UInt16) -> CECMessage {
        CECMessage(from: me, to: broadcast, .activeSource, [UInt8(physicalAddress >> 8), UInt8(physicalAddress & 0xFF)])
    }

    /// <Give Device Power Status> to the TV; it answers <Report Power Status>.
    static func giveDevicePowerStatus(from me: UInt8) -> CECMessage { CECMessage(from: me, to: tv, .giveDevicePowerStatus) }

    /// The TV's power from a <Report Power Status> it sent; nil for any other message.
    var reportedTVPower: TVPower? {
        guard initiator == Self.tv, opcode == Opcode.reportPowerStatus.rawValue, let status = operands.first else { return nil }
        return TVPower(reportedStatus: status)
    }

    /// "36" or "82:10:00", as cec-ctl prints raw messages (opcode and operands, hex).
    var shown: String {
        bytes.dropFirst().map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }
}

/// A physical address as people write it: 0x1000 is "1.0.0.0" (the TV's first HDMI input).
enum PhysicalAddress {
    static let invalid: UInt16 = 0xFFFF

    static func shown(_ address: UInt16) -> String {
        address == invalid ? "f.f.f.f" : [12, 8, 4, 0].map { String((address >> $0) & 0xF, radix: 16) }.joined(separator: ".")
    }
}
