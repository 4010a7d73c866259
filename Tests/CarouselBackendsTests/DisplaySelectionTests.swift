@testable import CarouselBackends
import CDRM
import XCTest

/// Connector and mode choice, names and error messages, on probed data without hardware.
final class DisplaySelectionTests: XCTestCase {
    private let hdmi = ConnectorInfo(id: 40, name: "HDMI-A-1", connected: false, modes: [])
    private let virtual = ConnectorInfo(id: 41, name: "Virtual-1", connected: true, modes: [
        ModeInfo(width: 1920, height: 1080, refresh: 60),
        ModeInfo(width: 1280, height: 800, refresh: 75, preferred: true),
        ModeInfo(width: 1920, height: 1080, refresh: 50),
        ModeInfo(width: 800, height: 600, refresh: 60),
    ])

    func testConnectorNamesFollowTheKernelConvention() {
        XCTAssertEqual(ConnectorInfo.name(type: UInt32(DRM_MODE_CONNECTOR_HDMIA), typeID: 1), "HDMI-A-1")
        XCTAssertEqual(ConnectorInfo.name(type: UInt32(DRM_MODE_CONNECTOR_VIRTUAL), typeID: 2), "Virtual-2")
    }

    func testWithoutANameTheFirstConnectedConnectorIsChosen() throws {
        XCTAssertEqual(try OutputSelection.connector(named: nil, in: [hdmi, virtual])?.name, "Virtual-1")
    }

    func testANamedConnectorIsChosenEvenWhenAnotherComesFirst() throws {
        var second = virtual
        second.id = 42; second.name = "DP-1"
        XCTAssertEqual(try OutputSelection.connector(named: "DP-1", in: [virtual, second])?.id, 42)
    }

    func testANamedButUnpluggedConnectorMeansWaitNotFail() throws {
        XCTAssertNil(try OutputSelection.connector(named: "HDMI-A-1", in: [hdmi, virtual]))
        XCTAssertNil(try OutputSelection.connector(named: nil, in: [hdmi]))
    }

    func testAnUnknownConnectorNameListsTheConnectors() {
        XCTAssertThrowsError(try OutputSelection.connector(named: "HDMI-A-9", in: [hdmi, virtual])) { error in
            XCTAssertEqual("\(error)", "connector HDMI-A-9 not found; connectors: HDMI-A-1, Virtual-1")
        }
    }

    func testThePreferredModeIsTheDefault() throws {
        XCTAssertEqual(try OutputSelection.mode(nil, of: virtual).label, "1280x800@75")
    }

    func testAModeWithoutRefreshPicksTheFastestMatch() throws {
        XCTAssertEqual(try OutputSelection.mode("1920x1080", of: virtual).label, "1920x1080@60")
        XCTAssertEqual(try OutputSelection.mode("1920x1080@50", of: virtual).label, "1920x1080@50")
    }

    func testAModeNotOfferedListsTheAvailableOnes() {
        XCTAssertThrowsError(try OutputSelection.mode("1234x567", of: virtual)) { error in
            XCTAssertEqual("\(error)", "mode 1234x567 not offered by connector Virtual-1; available: "
                + "1920x1080@60, 1280x800@75 (preferred), 1920x1080@50, 800x600@60")
        }
        XCTAssertThrowsError(try OutputSelection.mode("800x600@75", of: virtual))
    }

    func testModeRefreshIsComputedFromTimingsWhenVrefreshIsMissing() {
        var raw = drmModeModeInfo()
        raw.hdisplay = 1920; raw.vdisplay = 1080; raw.htotal = 2200; raw.vtotal = 1125; raw.clock = 148_500
        raw.type = UInt32(DRM_MODE_TYPE_PREFERRED)
        let mode = ModeInfo(raw)
        XCTAssertEqual(mode.refresh, 60)
        XCTAssertTrue(mode.preferred)
    }

    func testErrorMessagesSayWhatToDo() {
        XCTAssertEqual("\(DisplayError.permissionDenied(path: "/dev/dri/card0"))",
                       "permission denied on /dev/dri/card0 (add the user to group video)")
        XCTAssertTrue("\(DisplayError.notMaster(path: "/dev/dri/card0"))".hasPrefix("another process holds DRM master"))
        XCTAssertTrue("\(DisplayError.noDevice("x"))".hasPrefix("no DRM device (no /dev/dri/card*): "))
    }

    func testOpeningACardThatDoesNotExistIsNoDevice() {
        XCTAssertThrowsError(try DrmCard(path: "/nonexistent/card7")) { error in
            guard case DisplayError.noDevice(let detail) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("/nonexistent/card7"), detail)
        }
    }

    func testOpeningSomethingThatIsNotACardIsRefused() {
        // /dev/null opens fine but answers no DRM ioctl: it must not be taken for a display.
        XCTAssertThrowsError(try DrmCard(path: "/dev/null"))
    }

    func testANodeHalfwaySetUpByUdevIsWaitedForNotRefused() {
        // The kernel's node, then udev's steps: group first (root:video 0600), then the mode.
        XCTAssertTrue(DrmCard.isNotSetUpYet(owner: 0, mode: S_IFCHR | 0o600))
        XCTAssertFalse(DrmCard.isNotSetUpYet(owner: 0, mode: S_IFCHR | 0o660), "set up: a refusal is a wrong setup")
        XCTAssertFalse(DrmCard.isNotSetUpYet(owner: 1000, mode: S_IFCHR | 0o600), "someone else's node")
    }

    /// The first frame keeps the mode on screen only when its timings are the daemon's: a mode
    /// named otherwise, or marked preferred by another, is the same mode; another clock is not.
    func testTheModeOnScreenIsKeptOnlyWithTheSameTimings() {
        var ours = drmModeModeInfo()
        (ours.clock, ours.hdisplay, ours.htotal, ours.vdisplay, ours.vtotal, ours.vrefresh) = (108_000, 1280, 1688, 1024, 1066, 60)
        var splash = ours
        splash.type = 0; splash.name.0 = 0x58
        XCTAssertTrue(ModeOnScreen.sameTiming(ours, splash))
        var faster = ours
        faster.clock = 135_000
        XCTAssertFalse(ModeOnScreen.sameTiming(ours, faster))
        var interlaced = ours
        interlaced.flags = UInt32(DRM_MODE_FLAG_INTERLACE)
        XCTAssertFalse(ModeOnScreen.sameTiming(ours, interlaced))
    }
}
