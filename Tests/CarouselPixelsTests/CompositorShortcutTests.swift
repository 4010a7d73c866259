@testable import CarouselCore
import CarouselEngine
import CImaging
import XCTest
@testable import CarouselPixels
import PixelsTestSupport
import TestSupport

/// The compositor's cheaper ways of drawing a frame: emphasis too small to see is dropped,
/// and fast frames sample scaled cards nearest, then are redrawn bilinearly when they stop.
final class CompositorShortcutTests: XCTestCase {
    let background: UInt32 = 0x101010

    var config: CarouselConfig {
        var c = CarouselConfig()
        c.dots.shown = false
        return c
    }

    func card(x: Double, scale: Double = 1, opacity: Double = 1) -> CardLayout {
        CardLayout(index: 0, x: x, y: 45, width: 160, height: 90, scale: scale, opacity: opacity)
    }

    func layout(_ cards: [CardLayout], moving: Bool = true) -> FrameLayout {
        FrameLayout(viewport: Size(width: 320, height: 180), cards: cards, selectedIndex: 0,
                    itemCount: 1, pageCount: 1, selectedPage: 0, isMoving: moving)
    }

    /// A smooth diagonal gradient (about 1.5 levels a pixel), so nearest and bilinear samples
    /// of it differ by little, and a frame shows any misplaced pixel.
    func gradient() -> PixelImage {
        let image = PixelImage(width: 160, height: 90, format: PIXMAN_a8r8g8b8)!
        for y in 0..<90 {
            for x in 0..<160 {
                let r = UInt32(x * 255 / 159), g = UInt32(y * 255 / 89), b = UInt32((x + y) * 255 / 248)
                pixman_fill(image.base.assumingMemoryBound(to: UInt32.self), Int32(image.stride / 4), 32,
                            Int32(x), Int32(y), 1, 1, 0xFF00_0000 | r << 16 | g << 8 | b)
            }
        }
        return image
    }

    func render(_ scene: FrameLayout, _ picture: PixelImage, adaptsToMotion: Bool = false) -> [UInt32] {
        let frame = PixelImage(width: 320, height: 180)!
        let compositor = Compositor(config: config, store: FixedCards([0: picture]), adaptsToMotion: adaptsToMotion)
        XCTAssertTrue(compositor.compose(scene, into: frame.buffer))
        return pixels(frame)
    }

    func pixels(_ image: PixelImage) -> [UInt32] {
        (0..<image.height).flatMap { y in (0..<image.width).map { x in image.pixel(x: x, y: y) & 0xFF_FFFF } }
    }

    func testScaleWithinOneAndAQuarterPixelsIsAnExactCopy() {
        let picture = gradient()
        let unscaled = render(layout([card(x: 80)]), picture)
        // 160 px × (1 − 1/64) = 157.5 px: each side 1.25 px in, drawn as the unscaled copy.
        XCTAssertEqual(render(layout([card(x: 80, scale: 1 - 1.0 / 64)]), picture), unscaled)
        // Beyond the tolerance the card is scaled: 1.5 px in on each side, column 80 is background.
        let scaled = render(layout([card(x: 80, scale: 1 - 1.5 / 80)]), picture)
        XCTAssertNotEqual(scaled, unscaled)
        assertColour(scaled[90 * 320 + 80], background, "column left of the scaled card")
    }

    func testNearlyUnscaledCardIsCopiedAroundItsCentre() {
        // 0.5 px off the whole-pixel grid and slightly scaled: the copy lands at the rounded centre.
        let picture = gradient()
        let frame = render(layout([card(x: 80.6, scale: 0.995)]), picture)
        for x in [0, 1, 80, 159] {
            XCTAssertEqual(frame[50 * 320 + 81 + x], picture.pixel(x: x, y: 5) & 0xFF_FFFF, "column \(x) copied to \(81 + x)")
        }
        assertColour(frame[50 * 320 + 80], background, "left of the copy")
    }

    func testOpacityWithinOneAndAHalfLevelsIsOpaque() {
        let green = TestPictures.solid(0x30C060, width: 160, height: 90)
        let opaque = render(layout([card(x: 80)]), green)
        XCTAssertEqual(render(layout([card(x: 80, opacity: 1 - 1.4 / 255)]), green), opaque)
        let faded = render(layout([card(x: 80, opacity: 0.99)]), green)
        assertColour(faded[90 * 320 + 160], blend(0x30C060, over: background, opacity: 0.99), tolerance: 1, "0.99 is blended")
        XCTAssertNotEqual(faded, opaque)
    }

    func testSamplingFollowsTheSpeedOfTheCentreCard() {
        let still = layout([card(x: 80, scale: 0.9)])
        func moved(by dx: Double, moving: Bool = true) -> FrameLayout { layout([card(x: 80 + dx, scale: 0.9)], moving: moving) }
        XCTAssertEqual(ScaledSampling.choose(previous: nil, current: moved(by: 50)), .bilinear, "no previous frame")
        XCTAssertEqual(ScaledSampling.choose(previous: still, current: moved(by: 15.9)), .bilinear, "slow")
        XCTAssertEqual(ScaledSampling.choose(previous: still, current: moved(by: -16)), .nearest, "fast, leftwards")
        XCTAssertEqual(ScaledSampling.choose(previous: still, current: moved(by: 40, moving: false)), .bilinear, "settled")
        var other = moved(by: 40)
        other.cards[0].index = 1
        XCTAssertEqual(ScaledSampling.choose(previous: still, current: other), .bilinear, "centre card not shown before")
    }

    func testFastFrameIsNearestAndRedrawnBilinearWhenComposedAgain() {
        let picture = gradient()
        let compositor = Compositor(config: config, store: FixedCards([0: picture]))
        let frame = PixelImage(width: 320, height: 180)!
        XCTAssertTrue(compositor.compose(layout([card(x: 60, scale: 0.9, opacity: 0.8)]), into: frame.buffer))
        XCTAssertFalse(compositor.needsRefinement, "first frame: no speed known, bilinear")

        let fast = layout([card(x: 80, scale: 0.9, opacity: 0.8)])
        XCTAssertTrue(compositor.compose(fast, into: frame.buffer))
        XCTAssertTrue(compositor.needsRefinement, "20 px a frame: nearest")
        let nearest = pixels(frame)
        let bilinear = render(fast, picture)
        XCTAssertNotEqual(nearest, bilinear)
        // Inside the card (away from its antialiased edges) nearest is within a sample's step of bilinear.
        let inside = IntRect(x: 90, y: 55, width: 140, height: 70) // the card covers 88..<232 × 49.5..<130.5
        var worst = 0
        for y in inside.y..<inside.maxY {
            for x in inside.x..<inside.maxX {
                let a = nearest[y * 320 + x], b = bilinear[y * 320 + x]
                worst = max(worst, ([16, 8, 0] as [UInt32]).map { (shift: UInt32) -> Int in abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)) }.max()!)
            }
        }
        XCTAssertLessThanOrEqual(worst, 3, "nearest vs bilinear inside the card")

        // The strip stopped on this layout: composing it again redraws it bilinearly, once.
        XCTAssertTrue(compositor.compose(fast, into: frame.buffer))
        XCTAssertFalse(compositor.needsRefinement)
        XCTAssertEqual(pixels(frame), bilinear)
        XCTAssertFalse(compositor.compose(fast, into: frame.buffer), "already refined")
    }

    func testNearestFramesOnlyWriteTheTarget() {
        let picture = gradient()
        let start = layout([card(x: 60, scale: 0.9, opacity: 0.7)]), fast = layout([card(x: 80, scale: 0.85, opacity: 0.7)])
        var results: [[UInt32]] = []
        for fill in [UInt32(0), 0xDEADBE] {
            let frame = PixelImage(width: 320, height: 180)!
            frame.fill(fill)
            let compositor = Compositor(config: config, store: FixedCards([0: picture]))
            let previous = PixelImage(width: 320, height: 180)!
            compositor.compose(start, into: previous.buffer)
            XCTAssertTrue(compositor.compose(fast, into: frame.buffer))
            XCTAssertTrue(compositor.needsRefinement)
            results.append(pixels(frame))
        }
        XCTAssertEqual(results[0], results[1])
    }

    /// Faded scaled cards sample a cached copy of the rows they read: the same pixels as
    /// sampling the card itself, for cards cut by either screen edge, nearest and bilinear.
    func testStagedSamplingEqualsSamplingTheCard() {
        let picture = gradient()
        let scenes = [
            [card(x: -70, scale: 0.93, opacity: 0.7), card(x: 200, scale: 0.86, opacity: 0.6)],
            [card(x: 80.3, scale: 0.9, opacity: 0.8)],
            [card(x: 250, scale: 1.2, opacity: 0.5)],
        ]
        for cards in scenes {
            for moved in [0.0, 20] { // 20 px a frame: nearest
                var results: [[UInt32]] = []
                for staged in [true, false] {
                    let compositor = Compositor(config: config, store: FixedCards([0: picture]))
                    compositor.stagesFadedCards = staged
                    compositor.copiesSideLookCards = false   // the 0.86 card is within a pixel of the side look
                    let frame = PixelImage(width: 320, height: 180)!
                    if moved > 0 { compositor.compose(layout(cards.map { var c = $0; c.x -= moved; return c }), into: frame.buffer) }
                    XCTAssertTrue(compositor.compose(layout(cards), into: frame.buffer))
                    XCTAssertEqual(compositor.needsRefinement, moved > 0)
                    results.append(pixels(frame))
                }
                let first = results[0].indices.first { results[0][$0] != results[1][$0] }
                XCTAssertNil(first, "\(cards.map(\.x)), moved \(moved): first difference at \(first.map { ($0 % 320, $0 / 320) }.debugDescription)")
            }
        }
    }

    /// A card within a pixel of the side look (0.85, 0.6) is copied from its image at that
    /// look: inside its edges the same pixels as scaling and fading it (within 3 levels: its
    /// place is whole pixels, a gradient moves 1.5 levels a pixel), whether at rest, a little
    /// off the look, or cut by the screen's edge. Further off, it is scaled as before.
    func testACardAtTheSideLookIsCopiedFromItsImageAtThatLook() {
        let picture = gradient()
        let scenes = [card(x: 200, scale: 0.85, opacity: 0.6), card(x: 200.4, scale: 0.853, opacity: 0.602),
                      card(x: -100.3, scale: 0.85, opacity: 0.6), card(x: 200, scale: 0.9, opacity: 0.6)]
        for (n, scene) in scenes.enumerated() {
            var results: [[UInt32]] = [], copied: [Int] = []
            for copies in [true, false] {
                let compositor = Compositor(config: config, store: FixedCards([0: picture]), adaptsToMotion: false)
                compositor.copiesSideLookCards = copies
                let frame = PixelImage(width: 320, height: 180)!
                XCTAssertTrue(compositor.compose(layout([scene], moving: false), into: frame.buffer))
                copied.append(compositor.lastCardPixels.copied)
                results.append(pixels(frame))
            }
            XCTAssertEqual(copied[0] > 0, n < 3, "scene \(n): copied from the side look's image only within a pixel of it")
            XCTAssertEqual(copied[1], 0)
            let w = scene.width * scene.scale, h = scene.height * scene.scale
            let left = max(0, Int(scene.x + (scene.width - w) / 2) + 2), right = min(319, Int(scene.x + (scene.width + w) / 2) - 2)
            let top = Int(scene.y + (scene.height - h) / 2) + 2, bottom = Int(scene.y + (scene.height + h) / 2) - 2
            var worst = 0
            for y in top...bottom {
                for x in left...right {
                    let a = results[0][y * 320 + x], b = results[1][y * 320 + x]
                    for shift in [0, 8, 16] { worst = max(worst, abs(Int(a >> shift & 0xFF) - Int(b >> shift & 0xFF))) }
                }
            }
            XCTAssertLessThanOrEqual(worst, 3, "scene \(n): inside the card's edges")
        }
    }

    /// A side-look image is made a range of columns at a time, as frames first show them: each
    /// frame equals the frame a fresh compositor draws of it (which makes only its own columns),
    /// whatever columns earlier frames made. The card at the right edge, a little further in,
    /// then cut by the left edge (a gap between the two ranges made).
    func testASideLookImageMadeAColumnRangeAtATimeEqualsOneMadeWhole() {
        let picture = gradient()
        let scenes = [card(x: 250, scale: 0.85, opacity: 0.6), card(x: 200, scale: 0.85, opacity: 0.6),
                      card(x: -100, scale: 0.85, opacity: 0.6), card(x: 80, scale: 0.85, opacity: 0.6)]
        let progressive = Compositor(config: config, store: FixedCards([0: picture]), adaptsToMotion: false)
        for (n, scene) in scenes.enumerated() {
            let frame = PixelImage(width: 320, height: 180)!
            XCTAssertTrue(progressive.compose(layout([scene], moving: false), into: frame.buffer))
            XCTAssertGreaterThan(progressive.lastCardPixels.copied, 0, "scene \(n): copied from the side look's image")
            XCTAssertEqual(pixels(frame), render(layout([scene], moving: false), picture), "scene \(n)")
        }
    }

    /// Only the columns not made yet are made, and the made ones stay one range.
    func testASideLookImageMakesOnlyTheColumnsNotMadeYet() throws {
        let cards = SideLookCards(emphasis: CarouselConfig().emphasis)!
        let card = try XCTUnwrap(FixedCards([0: gradient()]).cards[0])
        var made: [Range<Int>] = []
        for columns in [20..<40, 30..<60, 0..<10, 5..<60, 100..<500] {
            _ = cards.image(of: card, columns: columns, keeping: [card]) { _, _, range in made.append(range) }
        }
        // The image is 136 columns wide (160 × 0.85); 100..<500 leaves a gap (60..<100), made too.
        XCTAssertEqual(made, [20..<40, 40..<60, 0..<20, 60..<136])
    }

    func testTranslateOnlyFramesDoNotAskForRefinement() {
        let compositor = Compositor(config: config, store: FixedCards([0: gradient()]))
        let frame = PixelImage(width: 320, height: 180)!
        XCTAssertTrue(compositor.compose(layout([card(x: 40)]), into: frame.buffer))
        XCTAssertTrue(compositor.compose(layout([card(x: 80)]), into: frame.buffer))
        XCTAssertFalse(compositor.needsRefinement, "nothing scaled, so nothing sampled nearest")
        XCTAssertFalse(compositor.compose(layout([card(x: 80)]), into: frame.buffer))
    }
}
