import XCTest
@testable import carouseld

/// `carouseld check`'s warnings about the kernel command line: what would draw on the screen
/// before the first frame.
final class BootConsoleTests: XCTestCase {
    /// Debian's GRUB default: `quiet`, nothing else. The cursor and the logo are left.
    func testDebiansDefaultLineWarnsOfTheCursorAndTheLogo() {
        let warnings = BootConsole.warnings(commandLine: "BOOT_IMAGE=/vmlinuz root=UUID=x ro quiet", plymouth: false)
        XCTAssertEqual(warnings.count, 2, "\(warnings)")
        XCTAssertTrue(warnings[0].contains("vt.global_cursor_default=0"), warnings[0])
        XCTAssertTrue(warnings[1].contains("logo.nologo"), warnings[1])
        XCTAssertTrue(warnings.allSatisfy { $0.hasPrefix("kernel command line: ") && $0.hasSuffix("(docs/boot-splash.md)") })
    }

    /// The line docs/boot-splash.md gives: nothing to say, with or without plymouth.
    func testTheDocumentedLinesAreQuiet() {
        XCTAssertEqual(BootConsole.warnings(commandLine: "root=/dev/sda1 quiet loglevel=3 vt.global_cursor_default=0 logo.nologo",
                                            plymouth: false), [])
        XCTAssertEqual(BootConsole.warnings(commandLine: "console=serial0,115200 console=tty1 root=PARTUUID=x quiet splash "
                                            + "loglevel=3 vt.global_cursor_default=0 fullscreen_logo=1 plymouth.ignore-serial-consoles",
                                            plymouth: true), [])
    }

    /// No `quiet`, or a loglevel above 3: kernel messages reach the screen.
    func testKernelMessagesOnTheScreen() {
        for line in ["root=/dev/sda1 vt.global_cursor_default=0 logo.nologo",
                     "root=/dev/sda1 quiet loglevel=7 vt.global_cursor_default=0 logo.nologo"] {
            let warnings = BootConsole.warnings(commandLine: line, plymouth: false)
            XCTAssertEqual(warnings.count, 1, line)
            XCTAssertTrue(warnings.first?.contains("quiet loglevel=3") == true, "\(warnings)")
        }
    }

    /// Every console on a serial port: nothing is written to the screen's console.
    func testASerialConsoleOnlyKeepsTheScreenQuiet() {
        XCTAssertEqual(BootConsole.warnings(commandLine: "root=/dev/vda console=ttyS0", plymouth: false), [])
    }

    /// Plymouth installed: without `splash` it shows nothing; with a serial console named, it
    /// needs `plymouth.ignore-serial-consoles` to draw its splash.
    func testPlymouthsOwnWords() {
        let quiet = "quiet loglevel=3 vt.global_cursor_default=0 logo.nologo"
        let noSplash = BootConsole.warnings(commandLine: quiet, plymouth: true)
        XCTAssertEqual(noSplash.count, 1)
        XCTAssertTrue(noSplash.first?.contains("'splash' is not on the kernel command line") == true, "\(noSplash)")
        let serial = BootConsole.warnings(commandLine: "\(quiet) splash console=ttyS0 console=tty1", plymouth: true)
        XCTAssertEqual(serial.count, 1)
        XCTAssertTrue(serial.first?.contains("plymouth.ignore-serial-consoles") == true, "\(serial)")
        XCTAssertEqual(BootConsole.warnings(commandLine: "\(quiet) splash", plymouth: false).count, 0,
                       "splash without plymouth: the kernel ignores it")
    }
}
