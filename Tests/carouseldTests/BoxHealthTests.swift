import Foundation
import XCTest
@testable import carouseld

/// The box's health from sysfs and mountinfo (issue 44), read from a made-up tree: a Pi with an
/// under-voltage alarm, a root file system with errors, a worn card; and a board with none of
/// those files, which gets no series and no error.
final class BoxHealthTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "carouseld-health-" + UUID().uuidString
        addTeardownBlock { [root] in try? FileManager.default.removeItem(atPath: root) }
    }

    private func write(_ path: String, _ text: String) throws {
        let url = URL(fileURLWithPath: root + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func link(_ path: String, to target: String) throws {
        try FileManager.default.createDirectory(atPath: root + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + path, withDestinationPath: target)
    }

    private func makePi() throws {
        try write("/sys/class/hwmon/hwmon0/name", "cpu_thermal\n")
        try write("/sys/class/hwmon/hwmon1/name", "rpi_volt\n")
        try write("/sys/class/hwmon/hwmon1/in0_lcrit_alarm", "1\n")
        try write("/sys/devices/platform/soc/soc:firmware/get_throttled", "50005\n")
        // The root as a Pi shows it: /dev/root, known by its number 179:2 (mmcblk0p2); the
        // overlay root's lower layer mounted read-only at /media/root-ro; a bind mount of it.
        try write("/proc/self/mountinfo", """
            22 1 0:21 / / rw,relatime shared:1 - overlay overlayroot rw,lowerdir=/media/root-ro,upperdir=/media/root-rw/overlay
            23 22 179:2 / /media/root-ro ro,relatime shared:2 - ext4 /dev/root ro,errors=remount-ro
            24 22 179:2 / /media/root\\040copy ro,relatime shared:3 - ext4 /dev/root ro,errors=remount-ro
            25 22 179:1 / /boot/firmware rw,relatime shared:4 - vfat /dev/mmcblk0p1 rw
            26 22 8:1 / /data ro,relatime shared:5 - ext4 /dev/sda1 rw,data=ordered
            27 22 7:0 / /srv/cut rw,relatime shared:6 - ext4 /dev/loop0 rw,errors=remount-ro,emergency_ro

            """)
        try link("/sys/dev/block/179:2", to: "../../devices/platform/emmc2bus/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0/mmcblk0p2")
        try link("/sys/dev/block/8:1", to: "../../devices/usb/sda/sda1")
        try write("/sys/fs/ext4/mmcblk0p2/errors_count", "3\n")
        try write("/sys/fs/ext4/sda1/errors_count", "0\n")
        try link("/sys/dev/block/7:0", to: "../../devices/virtual/block/loop0")
        try write("/sys/fs/ext4/loop0/errors_count", "1\n")
        try write("/sys/class/mmc_host/mmc0/mmc0:aaaa/life_time", "0x02 0x0b\n")
        try write("/sys/class/mmc_host/mmc0/mmc0:aaaa/pre_eol_info", "0x01\n")
        try write("/sys/class/mmc_host/mmc1/mmc1:0001/name", "wifi\n")   // an SDIO card: no wear figures
    }

    func testAPiWithEveryFigure() throws {
        try makePi()
        let health = BoxHealth.read(root: root)
        XCTAssertEqual(health.underVoltageNow, true)
        XCTAssertEqual(health.underVoltageSinceBoot, true, "bit 16 of get_throttled")
        XCTAssertEqual(health.fileSystems, [
            .init(device: "mmcblk0p2", mountPoint: "/media/root-ro", errors: 3, readOnly: true),
            // Mounted read-only by the unit's namespace, but its superblock is read-write.
            .init(device: "sda1", mountPoint: "/data", errors: 0, readOnly: false),
            // Linux 6.x's remount after an error (errors=remount-ro), seen on the real kernel.
            .init(device: "loop0", mountPoint: "/srv/cut", errors: 1, readOnly: true),
        ])
        XCTAssertEqual(health.cards, [.init(device: "mmc0:aaaa", lifeTimeA: 2, lifeTimeB: 11, preEOL: 1)])

        let samples = HealthMetrics.render(health).split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertEqual(samples, [
            "carouseld_under_voltage 1",
            "carouseld_under_voltage_since_boot 1",
            "carouseld_filesystem_errors{device=\"mmcblk0p2\",mountpoint=\"/media/root-ro\"} 3",
            "carouseld_filesystem_errors{device=\"sda1\",mountpoint=\"/data\"} 0",
            "carouseld_filesystem_errors{device=\"loop0\",mountpoint=\"/srv/cut\"} 1",
            "carouseld_filesystem_read_only{device=\"mmcblk0p2\",mountpoint=\"/media/root-ro\"} 1",
            "carouseld_filesystem_read_only{device=\"sda1\",mountpoint=\"/data\"} 0",
            "carouseld_filesystem_read_only{device=\"loop0\",mountpoint=\"/srv/cut\"} 1",
            "carouseld_mmc_life_time{device=\"mmc0:aaaa\",type=\"A\"} 2",
            "carouseld_mmc_life_time{device=\"mmc0:aaaa\",type=\"B\"} 11",
            "carouseld_mmc_pre_eol_info{device=\"mmc0:aaaa\"} 1",
        ])
    }

    func testTheFirmwareAloneSaysNowAndSinceBoot() throws {
        try write("/sys/devices/platform/soc/soc:firmware/get_throttled", "0x10000\n")
        let health = BoxHealth.read(root: root)
        XCTAssertEqual(health.underVoltageNow, false)
        XCTAssertEqual(health.underVoltageSinceBoot, true)
    }

    func testABoardWithoutTheFilesHasNoSeries() throws {
        try write("/proc/self/mountinfo", "22 1 0:21 / / rw - tmpfs tmpfs rw\n")
        try write("/sys/class/hwmon/hwmon0/name", "acpitz\n")
        let health = BoxHealth.read(root: root)
        XCTAssertEqual(health, BoxHealth())
        XCTAssertEqual(HealthMetrics.render(health), "")
        XCTAssertEqual(BoxHealth.read(root: root + "/nothing-here"), BoxHealth())
    }

    /// This machine's own tree: whatever it has, reading it does not fail, and each series it
    /// gives has a device label (the VM boots check the real ext4 root's).
    func testTheRealSystemReads() {
        let health = BoxHealth.read()
        for fs in health.fileSystems { XCTAssertFalse(fs.device.isEmpty) }
    }
}
