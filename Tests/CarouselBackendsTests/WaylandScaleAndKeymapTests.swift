@testable import CarouselBackends
@testable import CarouselCore
import CarouselEngine
import CLinux
import CWayland
import Glibc
import XCTest

/// The window's buffer size at an output scale, and the keyboard's keymap, with no compositor.
final class WaylandScaleAndKeymapTests: XCTestCase {
    override func setUp() { Log.sink = { _, _ in } }
    override func tearDown() { Log.sink = nil }

    private let hdmi = OpaquePointer(bitPattern: 0x1000)!, dp = OpaquePointer(bitPattern: 0x2000)!

    func testTheBufferIsTheConfiguredSizeTimesTheScale() {
        var state = ConfigureState()
        state.size = (1920, 1080)
        state.scale = 2
        XCTAssertEqual(state.bufferSize(outputMode: (3840, 2160)), Size(width: 3840, height: 2160), "a 4K panel at scale 2")
        state.scale = 1
        XCTAssertEqual(state.bufferSize(outputMode: (3840, 2160)), Size(width: 1920, height: 1080))
    }

    func testZeroTakesTheOutputsLogicalSize() {
        var state = ConfigureState()
        state.scale = 2
        XCTAssertEqual(state.bufferSize(outputMode: (2560, 1440)), Size(width: 2560, height: 1440))
        // An odd mode loses its last pixel to the logical size, as the compositor's would.
        XCTAssertEqual(state.bufferSize(outputMode: (1367, 768)), Size(width: 1366, height: 768))
        XCTAssertEqual(state.bufferSize(outputMode: nil), Size(width: 1280, height: 720), "no mode known: 640x360 logical")
    }

    func testTheScaleIsTheLargestOfTheOutputsTheSurfaceIsOn() {
        var state = ConfigureState()
        let scales: [OpaquePointer: Int32] = [hdmi: 1, dp: 2]
        XCTAssertFalse(state.track(entered: hdmi, left: nil, scaleOf: { scales[$0] }), "1 as before")
        XCTAssertTrue(state.track(entered: dp, left: nil, scaleOf: { scales[$0] }))
        XCTAssertEqual(state.scale, 2)
        XCTAssertTrue(state.track(entered: nil, left: dp, scaleOf: { scales[$0] }))
        XCTAssertEqual(state.scale, 1)
        XCTAssertFalse(state.track(entered: nil, left: hdmi, scaleOf: { scales[$0] }), "on none: the last scale stays")
        XCTAssertEqual(state.scale, 1)
    }

    /// A keymap as a virtual keyboard (wtype) uploads it: its own key codes for Right and Left.
    private func keymapFile(_ text: String) -> (fd: Int32, size: UInt32) {
        var template = Array("/tmp/carouseld-keymap.XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        unlink(template)
        let bytes = Array(text.utf8CString)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        return (fd, UInt32(bytes.count))
    }

    func testKeysMeanWhatTheKeymapSays() throws {
        let keymap = WaylandKeymap()
        XCTAssertEqual(keymap.evdevCode(UInt32(KEY_RIGHT)), UInt32(KEY_RIGHT), "no keymap: evdev codes")
        let file = keymapFile("""
            xkb_keymap {
            xkb_keycodes "(unnamed)" { minimum = 8; maximum = 11; <K1> = 9; <K2> = 10; <K3> = 11; };
            xkb_types "(unnamed)" { include "complete" };
            xkb_compatibility "(unnamed)" { include "complete" };
            xkb_symbols "(unnamed)" { key <K1> {[Right]}; key <K2> {[Left]}; key <K3> {[a]}; };
            };
            """)
        keymap.load(fd: file.fd, size: file.size, format: WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue)
        XCTAssertEqual(keymap.evdevCode(1), UInt32(KEY_RIGHT), "code 1 types Right in this keymap")
        XCTAssertEqual(keymap.evdevCode(2), UInt32(KEY_LEFT))
        XCTAssertNil(keymap.evdevCode(3), "a key carouseld does not use")
        XCTAssertNil(keymap.evdevCode(UInt32(KEY_RIGHT)), "evdev's KEY_RIGHT is no key in this keymap")
    }

    func testAKeymapThatDoesNotCompileLeavesEvdevCodes() {
        let keymap = WaylandKeymap()
        let file = keymapFile("xkb_keymap { not a keymap")
        keymap.load(fd: file.fd, size: file.size, format: WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue)
        XCTAssertEqual(keymap.evdevCode(UInt32(KEY_LEFT)), UInt32(KEY_LEFT))
    }
}
