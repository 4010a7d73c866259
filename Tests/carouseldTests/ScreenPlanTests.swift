@testable import CarouselBackends
@testable import CarouselConfig
import CarouselEngine
import XCTest
@testable import carouseld
@testable import CarouselPixels

final class ScreenPlanTests: XCTestCase {
    private func table(_ name: String, mode: String? = nil, rotation: Int? = nil, interval: Double? = nil,
                       playlist: String? = nil) -> OutputTable {
        var config = CarouselConfig()
        if let interval { config.interval = interval }
        return OutputTable(name: name, mode: mode, rotation: rotation, playlist: playlist, config: config)
    }

    private func shell(_ layout: OutputLayout, _ tables: [OutputTable]) -> ShellSettings {
        var shell = ShellSettings()
        shell.layout = layout
        shell.outputs = tables
        return shell
    }

    func testMirrorAndSpanShowOneCarouselOnEveryScreen() {
        for layout in [OutputLayout.mirror, .span] {
            let plan = ScreenPlan.make(shell: shell(layout, [table("HDMI-A-1"), table("HDMI-A-2")]), config: CarouselConfig())
            XCTAssertEqual(plan.screens.map(\.connector), ["HDMI-A-1", "HDMI-A-2"])
            XCTAssertEqual(plan.carousels.count, 1)
            XCTAssertEqual(plan.carousels[0].screens, [0, 1])
            XCTAssertEqual(plan.carousels[0].name, "HDMI-A-1+HDMI-A-2")
            XCTAssertEqual(plan.role(ofScreen: 1), "\(layout.rawValue) 2 of 2")
        }
    }

    func testIndependentScreensEachHaveTheirOwnCarousel() {
        let plan = ScreenPlan.make(shell: shell(.independent, [table("HDMI-A-1", interval: 5),
                                                               table("HDMI-A-2", interval: 9, playlist: "lobby.m3u")]),
                                   config: CarouselConfig())
        XCTAssertEqual(plan.carousels.map(\.screens), [[0], [1]])
        XCTAssertEqual(plan.carousels.map(\.config.interval), [5, 9])
        XCTAssertEqual(plan.carousels.map(\.playlistOutput), [nil, "HDMI-A-2"])
        XCTAssertEqual(plan.role(ofScreen: 0), "independent")
    }

    func testAScreenWithoutItsOwnModeOrRotationTakesTheTopLevelOnes() {
        var settings = shell(.mirror, [table("DP-1"), table("DP-2", mode: "1024x768", rotation: 90)])
        settings.mode = "1920x1080"
        settings.rotation = 180
        let plan = ScreenPlan.make(shell: settings, config: CarouselConfig())
        XCTAssertEqual(plan.screens.map(\.settings.mode), ["1920x1080", "1024x768"])
        XCTAssertEqual(plan.screens.map(\.settings.rotation), [180, 90])
    }

    func testWithoutTablesEveryConnectedConnectorIsMirrored() {
        let plan = ScreenPlan.make(shell: ShellSettings(), config: CarouselConfig(), connected: ["Virtual-1", "Virtual-2"])
        XCTAssertEqual(plan.layout, .mirror)
        XCTAssertEqual(plan.screens.map(\.connector), ["Virtual-1", "Virtual-2"])
        XCTAssertEqual(plan.carousels.map(\.screens), [[0, 1]])
    }

    func testOneOrNoConnectedScreenIsTheFirstConnectedOneAsBefore() {
        for connected in [[], ["HDMI-A-1"]] {
            let plan = ScreenPlan.make(shell: ShellSettings(), config: CarouselConfig(), connected: connected)
            XCTAssertEqual(plan.screens.map(\.connector), [nil], "nothing named: the first connected one, waited for")
        }
        var named = ShellSettings()
        named.output = "HDMI-A-2"
        XCTAssertEqual(ScreenPlan.make(shell: named, config: CarouselConfig(), connected: ["HDMI-A-1", "HDMI-A-2"])
                        .screens.map(\.connector), ["HDMI-A-2"], "output = NAME is one screen")
    }

    // MARK: - render --output

    private var images: [String] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/example/images").standardized.path
        return (1...5).map { "\(dir)/slide\($0).png" }
    }

    /// How many pixels of `a` differ from `b`'s columns starting at `offset`, and the largest
    /// channel difference (a count, so a failure does not print a million pixels).
    private func difference(_ a: PixelBuffer, _ b: PixelBuffer, offset: Int) -> (count: Int, largest: Int) {
        var count = 0, largest = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x + offset, y: y)
                guard p & 0xFFFFFF != q & 0xFFFFFF else { continue }
                count += 1
                for shift in [0, 8, 16] {
                    largest = max(largest, abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF)))
                }
            }
        }
        return (count, largest)
    }

    /// The two screens of a span, each drawn as the daemon draws it, are the wide render cut in
    /// two: pixel for pixel at rest; mid-page, with a scaled card across the seam, within one
    /// level on a few pixels (pixman steps a scaled card's sampling point from the left edge of
    /// what it draws, and the seam is such an edge), never a shifted or torn card.
    func testTheScreensOfASpanAreTheWideFrameCutInTwo() throws {
        var config = CarouselConfig()
        config.interval = 1
        let plan = ScreenPlan.make(shell: shell(.span, [table("A", mode: "640x400"), table("B", mode: "640x400")]),
                                   config: config)
        let size = Size(width: 640, height: 400)
        let left = try XCTUnwrap(ScreenPreview.make(plan: plan, output: "A", size: size))
        let right = try XCTUnwrap(ScreenPreview.make(plan: plan, output: "B", size: size))
        XCTAssertEqual(right.frame, Size(width: 1280, height: 400))
        func renderer(_ preview: ScreenPreview?) throws -> OfflineRenderer {
            try OfflineRenderer(config: config, paths: images, width: 1280, height: 400, view: preview?.view ?? .identity,
                                screen: preview.map { (Int($0.screen.width), Int($0.screen.height)) })
        }
        let wide = try renderer(nil), a = try renderer(left), b = try renderer(right)
        for time in [0.5, 1.15, 1.3] {   // at rest, then paging
            let whole = wide.frame(at: time)
            let left = difference(a.frame(at: time), whole, offset: 0), right = difference(b.frame(at: time), whole, offset: 640)
            for (half, diff) in [("left", left), ("right", right)] {
                if time < 1 {
                    XCTAssertEqual(diff.count, 0, "\(half) half at rest: \(diff)")
                } else {
                    XCTAssertLessThanOrEqual(diff.largest, 1, "\(half) half at \(time) s: \(diff)")
                    XCTAssertLessThan(diff.count, 640 * 400 / 1000, "\(half) half at \(time) s: \(diff)")
                }
            }
        }
        XCTAssertTrue(wide.engine.isMoving, "the last frame compared is mid-page")
        let seam = wide.frame(at: 1.3)
        XCTAssertNotEqual(seam.pixel(x: 639, y: 200) & 0xFFFFFF, 0x101010, "a card crosses the seam")
        XCTAssertNotEqual(seam.pixel(x: 640, y: 200) & 0xFFFFFF, 0x101010)
    }

    func testAMirrorAtTwiceTheSizeShowsTheSameFrameTwiceAsLarge() throws {
        let plan = ScreenPlan.make(shell: shell(.mirror, [table("A", mode: "640x400"), table("B", mode: "1280x800")]),
                                   config: CarouselConfig())
        let big = try XCTUnwrap(ScreenPreview.make(plan: plan, output: "B", size: Size(width: 1280, height: 800)))
        XCTAssertEqual(big.frame, Size(width: 640, height: 400))
        XCTAssertEqual(big.view.scale, 2)
        let small = try OfflineRenderer(config: CarouselConfig(), paths: images, width: 640, height: 400)
        let large = try OfflineRenderer(config: CarouselConfig(), paths: images, width: 640, height: 400,
                                        view: big.view, screen: (1280, 800))
        let s = small.frame(at: 0), l = large.frame(at: 0)
        // The centre card's colour at the same spot of the picture.
        for (x, y) in [(200, 200), (320, 100), (440, 300)] {
            XCTAssertEqual(s.pixel(x: x, y: y) & 0xFFFFFF, l.pixel(x: 2 * x, y: 2 * y) & 0xFFFFFF, "at \(x),\(y)")
        }
    }
}
