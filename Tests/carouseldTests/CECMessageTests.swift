import XCTest
@testable import carouseld

/// The CEC messages carouseld sends and reads, byte for byte, and what the TV's answers mean.
final class CECMessageTests: XCTestCase {
    func testTheMessagesCarouseldSendsAreAddressedAndBuiltAsCECSays() {
        let playback: UInt8 = 4
        XCTAssertEqual(CECMessage.standby(from: playback).bytes, [0x40, 0x36])
        XCTAssertEqual(CECMessage.imageViewOn(from: playback).bytes, [0x40, 0x04])
        XCTAssertEqual(CECMessage.giveDevicePowerStatus(from: playback).bytes, [0x40, 0x8F])
        // Broadcast, with the physical address 1.0.0.0 as two bytes, high first.
        XCTAssertEqual(CECMessage.activeSource(from: playback, physicalAddress: 0x1000).bytes, [0x4F, 0x82, 0x10, 0x00])
        XCTAssertEqual(CECMessage.activeSource(from: 8, physicalAddress: 0x2130).shown, "82:21:30")
        // Unregistered (no address claimed yet) to the TV.
        XCTAssertEqual(CECMessage.imageViewOn(from: CECMessage.broadcast).bytes, [0xF0, 0x04])
    }

    func testTheTVsReportedPowerIsReadFromReportPowerStatusOnly() {
        func report(_ status: UInt8, from initiator: UInt8 = 0) -> TVPower? {
            CECMessage(from: initiator, to: 4, .reportPowerStatus, [status]).reportedTVPower
        }
        XCTAssertEqual(report(0), .on)
        XCTAssertEqual(report(1), .standby)
        XCTAssertEqual(report(2), .on, "in transition standby to on: it goes on")
        XCTAssertEqual(report(3), .standby, "in transition on to standby: it goes to standby")
        XCTAssertEqual(report(7), .unknown)
        XCTAssertNil(report(0, from: 5), "an audio system's power is not the TV's")
        XCTAssertNil(CECMessage(from: 0, to: 4, .featureAbort, [0x8F, 0]).reportedTVPower)
        XCTAssertNil(CECMessage(bytes: [0x04, 0x90]).reportedTVPower, "no operand")
    }

    func testTheGaugeSaysOnStandbyOrUnknown() {
        XCTAssertEqual([TVPower.on, .standby, .unknown].map(\.metricValue), [1, 0, -1])
        XCTAssertTrue(TVPower.isTransition(2) && TVPower.isTransition(3))
        XCTAssertFalse(TVPower.isTransition(0) || TVPower.isTransition(1))
    }

    func testPhysicalAddressesAreShownAsPeopleWriteThem() {
        XCTAssertEqual(PhysicalAddress.shown(0x1000), "1.0.0.0")
        XCTAssertEqual(PhysicalAddress.shown(0x21A0), "2.1.a.0")
        XCTAssertEqual(PhysicalAddress.shown(PhysicalAddress.invalid), "f.f.f.f")
    }

    func testAnOutputsCardNumberComesFromItsDevicePath() {
        XCTAssertEqual(CECAdapterChoice.cardNumber("/dev/dri/card0"), 0)
        XCTAssertEqual(CECAdapterChoice.cardNumber("/dev/dri/card12"), 12)
        XCTAssertNil(CECAdapterChoice.cardNumber("/dev/fb0"))
        XCTAssertNil(CECAdapterChoice.cardNumber("wayland-0"))
    }

    func testAfterAChangeTheTVIsAskedEverySecondUntilItArrives() {
        var polling = TVPowerPolling()
        XCTAssertEqual(polling.asked(.standby, at: 100), 101)
        XCTAssertEqual(polling.answered(0, at: 101), 102, "still on: ask again")
        XCTAssertEqual(polling.answered(3, at: 102), 103, "on its way to standby: ask again")
        XCTAssertEqual(polling.answered(1, at: 109), 169, "in standby: the regular minute")
        XCTAssertNil(polling.awaited)
        XCTAssertEqual(polling.answered(1, at: 169), 229)
    }

    func testATVThatNeverArrivesOrDoesNotAnswerIsAskedOnlyEveryMinute() {
        var polling = TVPowerPolling()
        _ = polling.asked(.on, at: 100)
        XCTAssertEqual(polling.answered(1, at: 131), 191, "30 s passed without the change")
        _ = polling.asked(.on, at: 200)
        XCTAssertEqual(polling.answered(nil, at: 201), 261, "no answer: not every second")
        XCTAssertNil(polling.awaited)
    }
}
