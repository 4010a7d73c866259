import CCEC
import CarouselCore
import Glibc

/// One kernel CEC adapter, `/dev/cecN`, opened non-blocking: transmits are queued and their
/// results (and replies) read back when the descriptor is readable, so the loop never waits
/// for the bus. carouseld claims a Playback logical address on it once; the kernel keeps the
/// claim, and claims again by itself when the TV's hot-plug comes back.
final class CECAdapter: CECBus {
    let name: String
    private let descriptor: OwnedDescriptor
    /// The adapter's own name, "vivid-000-vid-out0" or "vc4-hdmi-0".
    let adapterName: String
    /// The DRM card number and connector id the driver says the adapter belongs to; nil when
    /// it does not say (vivid, USB adapters).
    let connector: (card: UInt32, connectorID: UInt32)?

    var fd: Int32? { descriptor.rawValue }

    init(path: String) throws {
        name = path
        descriptor = try OwnedDescriptor("open \(path)") { open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        let fd = descriptor.rawValue
        var caps = cec_caps()
        try syscall("CEC_ADAP_G_CAPS") { carouseld_cec_capabilities(fd, &caps) }
        adapterName = withUnsafeBytes(of: caps.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var info = cec_connector_info()
        if caps.capabilities & UInt32(CEC_CAP_CONNECTOR_INFO) != 0,
           carouseld_cec_connector(fd, &info) == 0, info.type == UInt32(CEC_CONNECTOR_TYPE_DRM) {
            connector = (info.drm.card_no, info.drm.connector_id)
        } else {
            connector = nil
        }
    }

    /// Claims a Playback address (the kernel polls for a free one in the background) and
    /// makes this descriptor an initiator. An adapter already configured (by an earlier run,
    /// or by `cec-ctl`) keeps its addresses.
    func claimPlayback() throws {
        try syscall("CEC_S_MODE") { carouseld_cec_be_initiator(descriptor.rawValue) }
        if carouseld_cec_claim_playback(descriptor.rawValue, "carouseld") != 0 {
            let error = errno
            guard error == EBUSY else { throw SystemError(call: "CEC_ADAP_S_LOG_ADDRS", errno: error) }
        }
    }

    func logicalAddress() -> UInt8? {
        var mask: UInt16 = 0
        guard carouseld_cec_logical_address_mask(descriptor.rawValue, &mask) == 0, mask != 0 else { return nil }
        return UInt8(mask.trailingZeroBitCount)
    }

    func physicalAddress() -> UInt16 {
        var address: UInt16 = PhysicalAddress.invalid
        return carouseld_cec_physical_address(descriptor.rawValue, &address) == 0 ? address : PhysicalAddress.invalid
    }

    func transmit(_ message: CECMessage, awaiting reply: CECMessage.Opcode?) throws -> UInt32 {
        var msg = cec_msg()
        msg.len = UInt32(min(message.bytes.count, 16))
        withUnsafeMutableBytes(of: &msg.msg) { raw in
            for (index, byte) in message.bytes.prefix(16).enumerated() { raw[index] = byte }
        }
        if let reply {
            msg.reply = reply.rawValue
            msg.timeout = 1000
        }
        try syscall("CEC_TRANSMIT") { carouseld_cec_transmit(descriptor.rawValue, &msg) }
        return msg.sequence
    }

    func receive() -> CECResult? {
        var msg = cec_msg()
        guard carouseld_cec_receive(descriptor.rawValue, &msg) == 0 else { return nil }
        let bytes = withUnsafeBytes(of: msg.msg) { Array($0.prefix(Int(min(msg.len, 16)))) }
        // A reply comes with its transmit's tx_status still set: the receive status decides first.
        if msg.rx_status != 0 {
            let ok = msg.rx_status & UInt8(CEC_RX_STATUS_OK) != 0 && msg.rx_status & UInt8(CEC_RX_STATUS_FEATURE_ABORT) == 0
            return ok ? .received(sequence: msg.sequence, CECMessage(bytes: bytes)) : .noReply(sequence: msg.sequence)
        }
        return msg.tx_status & UInt8(CEC_TX_STATUS_OK) != 0
            ? .acknowledged(sequence: msg.sequence) : .failed(sequence: msg.sequence, status: msg.tx_status)
    }

    /// At stop: waits up to `seconds` for what was queued to be sent (results read and
    /// dropped), since closing the descriptor right away could lose the last <Standby>.
    func waitForTransmits(seconds: Double) {
        var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        let end = MonotonicClock.now() + seconds
        while MonotonicClock.now() < end, poll(&entry, 1, Int32(max(1, (end - MonotonicClock.now()) * 1000))) > 0 {
            guard case .some(let result) = receive() else { continue }
            if case .acknowledged = result { return }
            if case .failed = result { return }
        }
    }
}
