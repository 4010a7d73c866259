@testable import CarouselBackends
@testable import CarouselConfig
@testable import CarouselCore
import XCTest
import CarouselEngine
import CLinux

/// The shared input path: device events (from libinput or a recording) → engine actions.
final class InputTranslatorTests: XCTestCase {
    private var logged: [String] = []
    private let screen = Size(width: 1000, height: 600)
    private let touch = 7, keyboard = 8, mouse = 9

    override func setUp() {
        logged = []
        Log.sink = { [unowned self] _, line in self.logged.append(line) }
    }
    override func tearDown() { Log.sink = nil }

    private func translator(_ change: (inout ShellSettings) -> Void = { _ in }) -> InputTranslator {
        var settings = ShellSettings()
        change(&settings)
        var t = InputTranslator(settings: settings, screen: screen)
        _ = t.translate([.added(device: touch, name: "panel", capabilities: .touch),
                         .added(device: keyboard, name: "keys", capabilities: .keyboard),
                         .added(device: mouse, name: "mouse", capabilities: .pointer)])
        t.startupFinished()
        return t
    }

    func testTouchChangesAreGatheredUntilTheFrame() {
        var t = translator()
        XCTAssertEqual(t.translate([.touchDown(device: touch, slot: 0, x: 100, y: 200, time: 1.0),
                                    .touchDown(device: touch, slot: 1, x: 300, y: 400, time: 1.0)]), [])
        XCTAssertEqual(t.translate([.touchFrame(device: touch, time: 1.0)]), [.touch(TouchFrame(time: 1.0, samples: [
            TouchSample(slot: 0, phase: .down, x: 100, y: 200), TouchSample(slot: 1, phase: .down, x: 300, y: 400)], contactsDown: 2))])
        // TOUCH_UP has no position: the sample carries the last one.
        XCTAssertEqual(t.translate([.touchMotion(device: touch, slot: 0, x: 90, y: 210, time: 1.01),
                                    .touchUp(device: touch, slot: 1, time: 1.01),
                                    .touchFrame(device: touch, time: 1.01)]),
                       [.touch(TouchFrame(time: 1.01, samples: [TouchSample(slot: 0, phase: .move, x: 90, y: 210),
                                                                TouchSample(slot: 1, phase: .up, x: 300, y: 400)], contactsDown: 1))])
        XCTAssertEqual(t.translate([.touchCancel(device: touch, slot: 0, time: 1.02), .touchFrame(device: touch, time: 1.02)]),
                       [.touch(TouchFrame(time: 1.02, samples: [TouchSample(slot: 0, phase: .cancel, x: 90, y: 210)], contactsDown: 0))])
        XCTAssertEqual(t.translate([.touchFrame(device: touch, time: 1.03)]), [], "an empty frame is not an action")
    }

    func testTouchIsRotatedOntoTheLogicalScreen() {
        var t = translator { $0.rotation = 90 }  // panel 600x1000
        _ = t.translate([.touchDown(device: touch, slot: 0, x: 0, y: 0, time: 2)])
        XCTAssertEqual(t.translate([.touchFrame(device: touch, time: 2)]),
                       [.touch(TouchFrame(time: 2, samples: [TouchSample(slot: 0, phase: .down, x: 1000, y: 0)], contactsDown: 1))])
    }

    func testReconfigureAppliesRotationAndSwitchesAndKeepsTheDevices() {
        var t = translator()
        t.reconfigure(settings: { var s = ShellSettings(); s.rotation = 180; s.input.keyboard = false; return s }(), screen: screen)
        _ = t.translate([.touchDown(device: touch, slot: 0, x: 100, y: 100, time: 1)])
        XCTAssertEqual(t.translate([.touchFrame(device: touch, time: 1)]),
                       [.touch(TouchFrame(time: 1, samples: [TouchSample(slot: 0, phase: .down, x: 900, y: 500)], contactsDown: 1))])
        XCTAssertEqual(t.translate([.key(device: keyboard, code: Int(KEY_LEFT), pressed: true, time: 2)]), [])
        XCTAssertEqual(t.translate([.removed(device: touch, time: 3)]), [.cancelTouches(time: 3)], "the touch device is still known")
    }

    func testDeviceRemovedMidDragCancelsInsteadOfReleasing() {
        var t = translator()
        _ = t.translate([.touchDown(device: touch, slot: 0, x: 500, y: 300, time: 3), .touchFrame(device: touch, time: 3)])
        _ = t.translate([.touchMotion(device: touch, slot: 0, x: 300, y: 300, time: 3.05), .touchFrame(device: touch, time: 3.05)])
        // libinput lifts the touches of a device it removes, in the same dispatch as DEVICE_REMOVED:
        // that lift must not become a release (it would fling to the next page).
        let actions = t.translate([.touchUp(device: touch, slot: 0, time: 3.2), .touchFrame(device: touch, time: 3.2),
                                   .removed(device: touch, time: 3.2)])
        XCTAssertEqual(actions, [.cancelTouches(time: 3.2)])
        XCTAssert(logged.contains { $0.contains("\"panel\" removed during a drag; the strip springs back") }, "\(logged)")
        XCTAssert(logged.contains("no touch device; running as a slideshow"), "the last touch device went away")
    }

    func testDeviceRemovedWithoutTouchesChangesNothing() {
        var t = translator()
        XCTAssertEqual(t.translate([.removed(device: keyboard, time: 4)]), [])
        XCTAssertEqual(t.translate([.touchDown(device: touch, slot: 0, x: 1, y: 1, time: 5), .touchFrame(device: touch, time: 5),
                                    .touchUp(device: touch, slot: 0, time: 5.1), .touchFrame(device: touch, time: 5.1)]).count, 2)
        XCTAssertEqual(t.translate([.removed(device: touch, time: 6)]), [], "its touch had already lifted")
    }

    func testLeftAndRightKeysPageOnPressOnly() {
        var t = translator()
        XCTAssertEqual(t.translate([
            .key(device: keyboard, code: Int(KEY_RIGHT), pressed: true, time: 1),
            .key(device: keyboard, code: Int(KEY_RIGHT), pressed: false, time: 1.1),
            .key(device: keyboard, code: Int(KEY_LEFT), pressed: true, time: 2),
            .key(device: keyboard, code: Int(KEY_A), pressed: true, time: 3),
        ]), [.page(1, time: 1), .page(-1, time: 2)])
        var off = translator { $0.input.keyboard = false }
        XCTAssertEqual(off.translate([.key(device: keyboard, code: Int(KEY_RIGHT), pressed: true, time: 1)]), [])
    }

    func testLeftButtonPointerDragIsOneFinger() {
        var t = translator()
        let slot = PointerFinger.slot
        XCTAssertEqual(t.translate([.pointerMotion(device: mouse, dx: 100, dy: 0, time: 1)]), [], "hovering is not touching")
        XCTAssertEqual(t.translate([.pointerButton(device: mouse, button: Int(BTN_RIGHT), pressed: true, time: 1.1)]), [])
        XCTAssertEqual(t.translate([.pointerButton(device: mouse, button: Int(BTN_LEFT), pressed: true, time: 1.2)]),
                       [.touch(TouchFrame(time: 1.2, samples: [TouchSample(slot: slot, phase: .down, x: 600, y: 300)], contactsDown: 1))])
        XCTAssertEqual(t.translate([.pointerMotion(device: mouse, dx: -5000, dy: 40, time: 1.3)]),
                       [.touch(TouchFrame(time: 1.3, samples: [TouchSample(slot: slot, phase: .move, x: 0, y: 340)], contactsDown: 1))],
                       "clamped to the screen")
        XCTAssertEqual(t.translate([.pointerMotionAbsolute(device: mouse, x: 250, y: 100, time: 1.4)]),
                       [.touch(TouchFrame(time: 1.4, samples: [TouchSample(slot: slot, phase: .move, x: 250, y: 100)], contactsDown: 1))])
        XCTAssertEqual(t.translate([.pointerButton(device: mouse, button: Int(BTN_LEFT), pressed: false, time: 1.5)]),
                       [.touch(TouchFrame(time: 1.5, samples: [TouchSample(slot: slot, phase: .up, x: 250, y: 100)], contactsDown: 0))])
    }

    func testPointerRemovedMidDragCancels() {
        var t = translator()
        _ = t.translate([.pointerButton(device: mouse, button: Int(BTN_LEFT), pressed: true, time: 1)])
        XCTAssertEqual(t.translate([.removed(device: mouse, time: 2)]), [.cancelTouches(time: 2)])
    }

    func testConfigSwitchesTouchAndPointerOff() {
        var t = translator { $0.input.touch = false; $0.input.pointer = false }
        XCTAssertEqual(t.translate([.touchDown(device: touch, slot: 0, x: 1, y: 1, time: 1), .touchFrame(device: touch, time: 1),
                                    .pointerButton(device: mouse, button: Int(BTN_LEFT), pressed: true, time: 1)]), [])
        XCTAssert(logged.contains("input: touch is off in config (touch = false)"))
        XCTAssertFalse(logged.contains("no touch device; running as a slideshow"))
    }

    func testNoTouchDeviceIsLoggedOnceAndTouchArrivingLaterIsNamed() {
        var t = InputTranslator(settings: ShellSettings(), screen: screen)
        _ = t.translate([.added(device: keyboard, name: "keys", capabilities: .keyboard)])
        t.startupFinished()
        _ = t.translate([.key(device: keyboard, code: Int(KEY_LEFT), pressed: true, time: 1)])
        XCTAssertEqual(logged.filter { $0 == "no touch device; running as a slideshow" }.count, 1)
        _ = t.translate([.added(device: touch, name: "late panel", capabilities: .touch)])
        XCTAssert(logged.contains("input: touch is on (\"late panel\")"), "\(logged)")
        XCTAssertEqual(logged.filter { $0 == "no touch device; running as a slideshow" }.count, 1)
    }

    func testPermissionDeniedIsOneClearLinePerDevice() {
        let opener = DeviceOpener(systemOpen: { _, _ in errno = EACCES; return -1 })
        XCTAssertEqual(opener.open(path: "/dev/input/event4", flags: O_RDWR), -EACCES)
        XCTAssertEqual(opener.open(path: "/dev/input/event4", flags: O_RDWR), -EACCES)
        XCTAssertEqual(opener.open(path: "/dev/input/event5", flags: O_RDWR), -EACCES)
        XCTAssertEqual(logged, ["permission denied on /dev/input/event4 (add the user to group input)",
                                "permission denied on /dev/input/event5 (add the user to group input)"])
    }

    func testOpenerReallyOpensAndReportsOtherErrorsAsTheyAre() {
        let opener = DeviceOpener()
        let fd = opener.open(path: "/dev/null", flags: O_RDWR | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        XCTAssertEqual(opener.open(path: "/nonexistent/event9", flags: O_RDWR), -ENOENT)
        XCTAssertEqual(logged.count, 1)
        XCTAssert(logged[0].contains("cannot open /nonexistent/event9"), "\(logged)")
    }
}
