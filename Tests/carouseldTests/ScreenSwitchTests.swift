import CarouselBackends
import CarouselEngine
import CarouselPixels
@testable import CarouselCore
import Foundation
import XCTest
@testable import carouseld

/// A CEC bus that keeps what is sent and hands back what the test queues.
final class FakeCECBus: CECBus {
    var name: String { "/dev/cec-fake" }
    var fd: Int32? { nil }
    var address: UInt8? = 4
    var physical: UInt16 = 0x1000
    private(set) var sent: [CECMessage] = []
    var results: [CECResult] = []
    var refuses = false

    func logicalAddress() -> UInt8? { address }
    func physicalAddress() -> UInt16 { physical }
    func transmit(_ message: CECMessage, awaiting reply: CECMessage.Opcode?) throws -> UInt32 {
        if refuses { throw SystemError(call: "CEC_TRANSMIT", errno: ENONET) }
        sent.append(message)
        return UInt32(sent.count)
    }
    func receive() -> CECResult? { results.isEmpty ? nil : results.removeFirst() }
    func waitForTransmits(seconds: Double) {}

    /// The opcodes sent, in order.
    var opcodes: [UInt8] { sent.compactMap(\.opcode) }
    func clear() { sent = [] }
}

/// A carousel's screens that only keep whether they are lit.
final class PowerOutput: SwitchableScreens {
    private(set) var lit = true
    func setScreens(on: Bool) { lit = on }
}

/// The order a TV needs (`ScreenSwitch`) and what the TV says (`TVLink`), on a loop whose clock
/// the test moves.
final class ScreenSwitchTests: XCTestCase {
    let time = ManualTime(1000)
    var loop: EventLoop!
    let bus = FakeCECBus()
    let output = PowerOutput()
    var tv: TVLink!
    /// What the TV said of its power, in order.
    var changes: [TVPower] = []

    override func setUpWithError() throws {
        loop = try EventLoop(time: time)
        tv = try TVLink(bus: bus, loop: loop) { [unowned self] in changes.append($0) }
    }

    private func at(_ seconds: Double) throws {
        time.set(1000 + seconds)
        try loop.runOnce(timeoutMilliseconds: 0)
    }

    private func screens(off: Double, on: Double, tv: TVLink? = nil) -> ScreenSwitch {
        ScreenSwitch(displays: [output], tv: tv ?? self.tv, delays: (off, on), loop: loop)
    }

    func testOffSendsStandbyNowAndBlanksTheCRTCAfterTheDelay() throws {
        let screens = screens(off: 30, on: 10)
        try at(0); bus.clear()
        screens.turn(on: false)
        XCTAssertEqual(bus.sent, [.standby(from: 4)])
        try at(29.9)
        XCTAssertTrue(output.lit, "still lit: the TV goes to standby with its signal")
        try at(30)
        XCTAssertFalse(output.lit)
    }

    func testOnLightsTheCRTCFirstThenWakesTheTVAndAgainAfterTheDelay() throws {
        let screens = screens(off: 0, on: 10)
        screens.turn(on: false)
        XCTAssertFalse(output.lit, "no delay: blanked with the <Standby>")
        try at(1); bus.clear()
        screens.turn(on: true)
        XCTAssertTrue(output.lit)
        XCTAssertEqual(bus.sent, [], "the TV is woken on the loop's turn, after the frame that lights the CRTC")
        try at(1)
        XCTAssertEqual(bus.sent, [.imageViewOn(from: 4), .activeSource(from: 4, physicalAddress: 0x1000)])
        try at(2)
        bus.clear()
        try at(11)
        XCTAssertEqual(bus.opcodes.filter { $0 != 0x8F }, [0x04, 0x82], "repeated once after cec_on_delay")
        bus.clear()
        try at(100)
        XCTAssertEqual(bus.opcodes.filter { $0 != 0x8F }, [], "once only")
    }

    func testOnBeforeTheBlankCancelsIt() throws {
        let screens = screens(off: 30, on: 0)
        screens.turn(on: false)
        try at(5)
        screens.turn(on: true)
        try at(40)
        XCTAssertTrue(output.lit)
    }

    func testOffCancelsThePendingRepeatOfTheWake() throws {
        let screens = screens(off: 0, on: 10)
        screens.turn(on: true)
        try at(0)
        screens.turn(on: false)
        bus.clear()
        try at(20)
        XCTAssertFalse(bus.opcodes.contains(0x04))
    }

    func testTheBacklightGoesDarkWithTheCRTCNotWithTheStandby() throws {
        let sysfs = NSTemporaryDirectory() + "screen-switch-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: sysfs) }
        try FileManager.default.createDirectory(atPath: sysfs + "/class/backlight/panel", withIntermediateDirectories: true)
        try "700\n".write(toFile: sysfs + "/class/backlight/panel/brightness", atomically: false, encoding: .utf8)
        func brightness() -> String? { Backlight.read(sysfs + "/class/backlight/panel/brightness") }
        let screens = screens(off: 30, on: 10)
        screens.use(backlights: [Backlight(name: "panel", sysfs: sysfs)])
        screens.turn(on: false)
        XCTAssertEqual(brightness(), "700", "lit while the TV goes to standby")
        try at(30)
        XCTAssertEqual(brightness(), "0")
        XCTAssertFalse(output.lit)
        screens.turn(on: true)
        XCTAssertEqual(brightness(), "700")
    }

    func testWithoutATVTheCRTCIsSwitchedAtOnce() throws {
        let screens = ScreenSwitch(displays: [output], tv: nil, delays: (30, 10), loop: loop)
        screens.turn(on: false)
        XCTAssertFalse(output.lit)
        screens.turn(on: true)
        XCTAssertTrue(output.lit)
    }

    func testATVThatDoesNotAnswerGetsNoDelayAndOneWarning() throws {
        let screens = screens(off: 30, on: 10)
        try at(0)
        bus.results = [.failed(sequence: 1, status: 0x24)]
        tv.drain()
        XCTAssertEqual(tv.isAnswering, false)
        XCTAssertEqual(tv.power, .unknown)
        screens.turn(on: false)
        XCTAssertFalse(output.lit, "KMS alone: blanked at once")
        bus.results = [.acknowledged(sequence: 2), .received(sequence: 3, CECMessage(from: 0, to: 4, .reportPowerStatus, [1]))]
        tv.drain()
        XCTAssertEqual(tv.isAnswering, true, "answers again")
        XCTAssertEqual(tv.power, .standby)
    }

    func testTheTVsPowerIsAskedAtStartAndAgainUntilTheChangeArrives() throws {
        try at(0)
        XCTAssertEqual(bus.sent, [.giveDevicePowerStatus(from: 4)], "asked at start")
        bus.results = [.received(sequence: 1, CECMessage(from: 0, to: 4, .reportPowerStatus, [0]))]
        tv.drain()
        XCTAssertEqual(tv.power, .on)
        tv.standby()
        bus.clear()
        try at(1)
        XCTAssertEqual(bus.opcodes, [0x8F], "a second after <Standby>")
        bus.results = [.received(sequence: 1, CECMessage(from: 0, to: 4, .reportPowerStatus, [3]))]
        tv.drain()
        XCTAssertEqual(tv.power, .standby)
        bus.clear()
        try at(2)
        XCTAssertEqual(bus.opcodes, [0x8F], "in transition: asked again")
        bus.results = [.noReply(sequence: 1)]
        tv.drain()
        XCTAssertEqual(tv.power, .unknown)
        XCTAssertEqual(changes, [.on, .standby, .unknown])
    }

    func testWhatIsAskedBeforeTheAddressIsClaimedWaitsForIt() throws {
        bus.address = nil
        let screens = screens(off: 0, on: 0)
        screens.wakeTV()
        try at(0)
        try at(0.2)
        XCTAssertEqual(bus.sent, [], "the kernel is still claiming: nothing sent, no warning")
        XCTAssertNil(tv.isAnswering)
        bus.address = 8
        try at(0.5)
        XCTAssertEqual(bus.sent, [.giveDevicePowerStatus(from: 8), .imageViewOn(from: 8), .activeSource(from: 8, physicalAddress: 0x1000)])
    }

    func testAnAddressNeverClaimedSendsFromUnregisteredAfterTheWait() throws {
        bus.address = nil
        tv.standby()
        for step in 1...25 { try at(Double(step) * 0.2) }
        XCTAssertEqual(bus.sent.prefix(2), [.standby(from: CECMessage.broadcast), .giveDevicePowerStatus(from: CECMessage.broadcast)],
                       "in the order asked, from Unregistered")
    }

    func testATransmitTheKernelRefusesCountsAsNoAnswer() throws {
        bus.refuses = true
        tv.wake()
        XCTAssertEqual(tv.isAnswering, false)
    }
}
