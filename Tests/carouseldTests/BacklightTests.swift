import Foundation
import XCTest
@testable import CarouselConfig
@testable import carouseld

/// The backlight against a sysfs tree made in a temporary directory, laid out as the kernel
/// lays it out: /sys/class/backlight/NAME links to the device under its parent (for a GPU
/// driver's panel, the connector: card0-eDP-1/intel_backlight).
final class BacklightTests: XCTestCase {
    private var sysfs = ""

    override func setUpWithError() throws {
        sysfs = NSTemporaryDirectory() + "backlight-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: sysfs + "/class/backlight", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: sysfs) }

    /// A device under `parent` (a path below devices/) with its attributes.
    private func device(_ name: String, under parent: String, attributes: [String: String]) throws {
        let dir = "\(sysfs)/devices/\(parent)/\(name)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (attribute, value) in attributes { try (value + "\n").write(toFile: "\(dir)/\(attribute)", atomically: false, encoding: .utf8) }
        try FileManager.default.createSymbolicLink(atPath: "\(sysfs)/class/backlight/\(name)", withDestinationPath: "../../devices/\(parent)/\(name)")
    }

    private func value(_ name: String, _ attribute: String) -> String? {
        Backlight.read("\(sysfs)/class/backlight/\(name)/\(attribute)")
    }

    func testAutoFindsTheBacklightRegisteredUnderTheScreensConnectorOnly() throws {
        try device("intel_backlight", under: "pci0000:00/0000:00:02.0/drm/card0/card0-eDP-1", attributes: ["brightness": "700", "max_brightness": "1000"])
        try device("acpi_video0", under: "LNXSYSTM:00/acpi_video", attributes: ["brightness": "5", "max_brightness": "10"])
        XCTAssertEqual(Backlight.resolve("auto", connectors: [("card0", "eDP-1")], sysfs: sysfs).map(\.name), ["intel_backlight"])
        XCTAssertEqual(Backlight.resolve("auto", connectors: [("card0", "HDMI-A-1")], sysfs: sysfs).map(\.name), [],
                       "an HDMI screen has no backlight of ours")
        XCTAssertEqual(Backlight.resolve("off", connectors: [("card0", "eDP-1")], sysfs: sysfs).map(\.name), [])
        XCTAssertEqual(Backlight.resolve("acpi_video0", connectors: [], sysfs: sysfs).map(\.name), ["acpi_video0"])
        XCTAssertEqual(Backlight.resolve("rpi_backlight", connectors: [], sysfs: sysfs).map(\.name), [], "a name that is not there")
    }

    func testOffSetsBrightnessZeroAndOnRestoresTheValueItHad() throws {
        try device("panel", under: "platform/panel", attributes: ["brightness": "700", "max_brightness": "1000"])
        let light = Backlight(name: "panel", sysfs: sysfs)
        light.setPower(false)
        XCTAssertEqual(value("panel", "brightness"), "0")
        light.setPower(false)   // a second off must not save the 0
        light.setPower(true)
        XCTAssertEqual(value("panel", "brightness"), "700")
    }

    func testBlPowerIsUsedWhereTheDeviceHasIt() throws {
        try device("dsi", under: "platform/dsi", attributes: ["brightness": "200", "max_brightness": "255", "bl_power": "0"])
        let light = Backlight(name: "dsi", sysfs: sysfs)
        light.setPower(false)
        XCTAssertEqual(value("dsi", "bl_power"), "4", "FB_BLANK_POWERDOWN")
        XCTAssertEqual(value("dsi", "brightness"), "200", "the brightness is left alone")
        light.setPower(true)
        XCTAssertEqual(value("dsi", "bl_power"), "0")
    }

    func testABacklightNameWithASlashIsRefusedNamingTheKey() {
        var shell = ShellSettings()
        shell.schedule.backlight = "../../power/state"
        XCTAssertEqual(shell.validate().map(\.key), ["backlight"])
    }
}
