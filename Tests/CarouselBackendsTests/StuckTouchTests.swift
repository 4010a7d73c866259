@testable import CarouselBackends
@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
import XCTest
import CoreTestSupport

/// `touch_timeout` in the translator, on scripted device events (the same path as libinput's
/// and the Wayland seat's).
final class StuckTouchTests: XCTestCase {
    private func translator(timeout: Double) -> InputTranslator {
        var settings = ShellSettings()
        settings.input.touchTimeout = timeout
        var translator = InputTranslator(settings: settings, screen: Size(width: 800, height: 480), announceDevices: false)
        _ = translator.translate([.added(device: 1, name: "Panel", capabilities: .touch)])
        return translator
    }

    func testAContactQuietForTheTimeoutIsLiftedWhereItWas() {
        var input = translator(timeout: 20)
        _ = input.translate([.touchDown(device: 1, slot: 3, x: 100, y: 100, time: 50), .touchFrame(device: 1, time: 50)])
        _ = input.translate([.touchMotion(device: 1, slot: 3, x: 120, y: 100, time: 51), .touchFrame(device: 1, time: 51)])
        XCTAssertEqual(input.nextStuckDeadline, 71, "20 s after its last event")
        XCTAssertEqual(input.expireStuckTouches(now: 70.9), [])
        let log = capturingLog {
            XCTAssertEqual(input.expireStuckTouches(now: 71),
                           [.touch(TouchFrame(time: 71, samples: [TouchSample(slot: 3, phase: .up, x: 120, y: 100)], contactsDown: 0))])
        }
        XCTAssertEqual(log.map(\.0), [.warning])
        XCTAssertTrue(log[0].1.contains("\"Panel\" slot 3"), log[0].1)
        XCTAssertNil(input.nextStuckDeadline)
        // Its later events are dropped, the lift included; then the slot counts again.
        XCTAssertEqual(input.translate([.touchMotion(device: 1, slot: 3, x: 300, y: 100, time: 80), .touchFrame(device: 1, time: 80)]), [])
        XCTAssertEqual(input.translate([.touchUp(device: 1, slot: 3, time: 81), .touchFrame(device: 1, time: 81)]), [])
        XCTAssertEqual(input.translate([.touchDown(device: 1, slot: 3, x: 10, y: 10, time: 82), .touchFrame(device: 1, time: 82)]),
                       [.touch(TouchFrame(time: 82, samples: [TouchSample(slot: 3, phase: .down, x: 10, y: 10)], contactsDown: 1))])
    }

    func testMovingContactsAndTimeoutZeroNeverExpire() {
        var input = translator(timeout: 5)
        _ = input.translate([.touchDown(device: 1, slot: 0, x: 1, y: 1, time: 0), .touchFrame(device: 1, time: 0)])
        for t in stride(from: 1.0, through: 30, by: 1) {
            _ = input.translate([.touchMotion(device: 1, slot: 0, x: t, y: 1, time: t), .touchFrame(device: 1, time: t)])
            XCTAssertEqual(input.expireStuckTouches(now: t + 4.9), [])
        }
        var off = translator(timeout: 0)
        _ = off.translate([.touchDown(device: 1, slot: 0, x: 1, y: 1, time: 0), .touchFrame(device: 1, time: 0)])
        XCTAssertNil(off.nextStuckDeadline)
        XCTAssertEqual(off.expireStuckTouches(now: 1e6), [])
    }

    func testARemovedDeviceLeavesNoContactToExpire() {
        var input = translator(timeout: 5)
        _ = input.translate([.touchDown(device: 1, slot: 0, x: 1, y: 1, time: 0), .touchFrame(device: 1, time: 0)])
        _ = input.translate([.removed(device: 1, time: 1)])
        XCTAssertNil(input.nextStuckDeadline)
    }
}
