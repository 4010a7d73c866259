@testable import CarouselBackends
import XCTest
import CarouselEngine
import CoreTestSupport

/// libinput's transformed coordinates and the rotation from panel to logical screen.
final class InputMappingTests: XCTestCase {
    func testTransformedCoordinatesFollowLibinputsFormula() {
        // (v − min) × size / (max − min + 1)
        XCTAssertEqual(PanelMapping.transformed(0, min: 0, max: 4095, size: 1024), 0)
        XCTAssertEqual(PanelMapping.transformed(2048, min: 0, max: 4095, size: 1024), 512)
        XCTAssertEqual(PanelMapping.transformed(4095, min: 0, max: 4095, size: 1024), 1023.75)
        XCTAssertEqual(PanelMapping.transformed(100, min: 100, max: 1123, size: 1280), 0)
        XCTAssertEqual(PanelMapping.transformed(612, min: 100, max: 1123, size: 1280), 640)
        XCTAssertEqual(PanelMapping.transformed(-50, min: -100, max: 99, size: 800), 200)
    }

    func testRecordedPositionsBecomeScreenPixelsByTheFormula() throws {
        // A device whose axes do not start at 0, so an off-by-min or off-by-one shows.
        var device = TestTouchscreen()
        device.x = (min: 200, max: 3895, resolution: 10)
        device.y = (min: -100, max: 1099, resolution: 10)
        var b = RecordingBuilder(device: device)
        b.down(x: 25, y: 75, at: 0.5)
        let recording = try RecordingParser.parse(b.yaml(), path: "t.yml")
        let panel = Size(width: 1280, height: 800)
        var decoder = try EvdevDecoder(id: 0, device: recording.devices[0], panel: panel, path: "t.yml")
        var seat = SeatSlots()
        let events = decoder.decode(recording.devices[0].frames[0], seat: &seat)
        let vx = device.units(xPercent: 25), vy = device.units(yPercent: 75)
        XCTAssertEqual(events, [
            .touchDown(device: 0, slot: 0, x: Double(vx - 200) * 1280 / 3696, y: Double(vy + 100) * 800 / 1200, time: 0.5),
            .touchFrame(device: 0, time: 0.5),
        ])
        XCTAssertEqual(Double(vx - 200) * 1280 / 3696, 320, accuracy: 0.5)
    }

    func testNoRotationIsIdentity() {
        let m = PanelMapping(screen: Size(width: 1280, height: 800), rotation: 0)
        XCTAssertEqual(m.panel, Size(width: 1280, height: 800))
        let p = m.toScreen(panelX: 100, panelY: 700)
        XCTAssertEqual(p.x, 100); XCTAssertEqual(p.y, 700)
    }

    /// Rotation n turns the picture n° counter-clockwise on the panel (DRM_MODE_ROTATE_n):
    /// each corner of the panel must land on the logical corner the picture put there.
    func testRotatedPanelCornersLandOnTheLogicalCorners() {
        let screen = Size(width: 800, height: 1280)  // portrait picture on a landscape panel
        let r90 = PanelMapping(screen: screen, rotation: 90)
        XCTAssertEqual(r90.panel, Size(width: 1280, height: 800))
        // Turned 90° counter-clockwise, the picture's top-right corner sits at the panel's top-left.
        assertPoint(r90.toScreen(panelX: 0, panelY: 0), (800, 0))
        assertPoint(r90.toScreen(panelX: 0, panelY: 800), (0, 0))
        assertPoint(r90.toScreen(panelX: 1280, panelY: 800), (0, 1280))
        assertPoint(r90.toScreen(panelX: 640, panelY: 400), (400, 640))

        let r270 = PanelMapping(screen: screen, rotation: 270)
        assertPoint(r270.toScreen(panelX: 1280, panelY: 0), (0, 0))
        assertPoint(r270.toScreen(panelX: 0, panelY: 0), (0, 1280))
        assertPoint(r270.toScreen(panelX: 0, panelY: 800), (800, 1280))

        let r180 = PanelMapping(screen: Size(width: 1280, height: 800), rotation: 180)
        XCTAssertEqual(r180.panel, Size(width: 1280, height: 800))
        assertPoint(r180.toScreen(panelX: 0, panelY: 0), (1280, 800))
        assertPoint(r180.toScreen(panelX: 1000, panelY: 100), (280, 700))
    }

    /// The point of rotating touch: a finger moving towards the picture's left, as the panel shows
    /// it, moves left on the logical screen. Turning the picture n° counter-clockwise turns its
    /// left-pointing arrow with it: down the panel at 90, right at 180, up at 270.
    func testSwipeTowardsThePicturesLeftIsLeftOnTheScreen() {
        let screen = Size(width: 800, height: 1280)
        let picturesLeftOnPanel: [Int: (dx: Double, dy: Double)] = [0: (-1, 0), 90: (0, 1), 180: (1, 0), 270: (0, -1)]
        for (rotation, dir) in picturesLeftOnPanel {
            let m = PanelMapping(screen: screen, rotation: rotation)
            let c = (x: m.panel.width / 2, y: m.panel.height / 2)
            let a = m.toScreen(panelX: c.x, panelY: c.y)
            let b = m.toScreen(panelX: c.x + 300 * dir.dx, panelY: c.y + 300 * dir.dy)
            XCTAssertEqual(b.x - a.x, -300, accuracy: 1e-9, "rotation \(rotation)")
            XCTAssertEqual(b.y - a.y, 0, accuracy: 1e-9, "rotation \(rotation)")
        }
    }

    func testRotationIsABijectionOntoTheScreen() {
        let screen = Size(width: 600, height: 1000)
        for rotation in [0, 90, 180, 270] {
            let m = PanelMapping(screen: screen, rotation: rotation)
            var seen = Set<[Int]>()
            for px in stride(from: 0.0, through: m.panel.width, by: 50) {
                for py in stride(from: 0.0, through: m.panel.height, by: 50) {
                    let p = m.toScreen(panelX: px, panelY: py)
                    XCTAssert((0...screen.width).contains(p.x) && (0...screen.height).contains(p.y), "rotation \(rotation)")
                    seen.insert([Int(p.x), Int(p.y)])
                }
            }
            let count = (Int(m.panel.width) / 50 + 1) * (Int(m.panel.height) / 50 + 1)
            XCTAssertEqual(seen.count, count, "rotation \(rotation) maps two panel points to one")
        }
    }

    private func assertPoint(_ p: (x: Double, y: Double), _ expected: (Double, Double), line: UInt = #line) {
        XCTAssertEqual(p.x, expected.0, accuracy: 1e-9, line: line)
        XCTAssertEqual(p.y, expected.1, accuracy: 1e-9, line: line)
    }
}

final class TouchRoutingTests: XCTestCase {
    private let routing = TouchRouting(screens: [(connector: "HDMI-A-1", touch: nil),
                                                 (connector: "HDMI-A-2", touch: "ILITEK ILITEK-TP"),
                                                 (connector: "DP-1", touch: "pci-0000:00:14.0-usb-0:3:1.0")])

    func testTheConfigNamesTheDeviceByNameOrIdPath() {
        XCTAssertEqual(routing.screen(for: .init(name: "ILITEK ILITEK-TP")).index, 1)
        XCTAssertEqual(routing.screen(for: .init(name: "eGalax", idPath: "pci-0000:00:14.0-usb-0:3:1.0")).index, 2)
        XCTAssertEqual(routing.screen(for: .init(name: "ILITEK ILITEK-TP", wlOutput: "DP-1")).reason, .config,
                       "the config wins over udev")
    }

    func testUdevWlOutputNamesTheConnector() {
        let found = routing.screen(for: .init(name: "Goodix", wlOutput: "DP-1"))
        XCTAssertEqual(found.index, 2)
        XCTAssertEqual(found.reason, .wlOutput)
    }

    func testAnUnmappedDeviceDrivesTheFirstScreen() {
        let found = routing.screen(for: .init(name: "Goodix", wlOutput: "HDMI-A-9"))
        XCTAssertEqual(found.index, 0)
        XCTAssertEqual(found.reason, .firstScreen)
    }

    func testATouchOnTheSecondSpannedScreenLandsOnItsPartOfTheCarousel() throws {
        let span = try XCTUnwrap(ScreenArrangement.span([Size(width: 1024, height: 768), Size(width: 1024, height: 768)]))
        let target = TouchTarget(carousel: 0, screen: Size(width: 1024, height: 768), rotation: 0, view: span.transforms[1])
        let frame = target.toEngine(TouchFrame(time: 1, samples: [TouchSample(slot: 0, phase: .down, x: 10, y: 20)], contactsDown: 1))
        XCTAssertEqual(frame.samples[0].x, 1034)
        XCTAssertEqual(frame.samples[0].y, 20)
        XCTAssertEqual(frame.time, 1)
    }
}
