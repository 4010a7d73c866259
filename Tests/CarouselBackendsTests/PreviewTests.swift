@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
import CLinux
import Foundation
import Glibc
import XCTest
@testable import CarouselPixels
import TestSupport
import CoreTestSupport
import PixelsTestSupport

/// Previews: a card not decoded in time shows its 1/8 preview, scaled up into the card's
/// exact rectangle, until the full card replaces it; decodes go the selected card first, then
/// the way the strip moves, then the rest; a file that cannot be decoded gets neither.
final class PreviewTests: XCTestCase {
    let background = CarouselConfig().background
    /// Big enough to have a preview (32x18), small enough to decode in a blink.
    let card = (width: 256, height: 144)
    var dir = ""
    var paths: [String] = []
    /// Left half, right half of each picture: where each colour lands tells the position.
    let halves: [(UInt32, UInt32)] = [(0xE04030, 0x3060D0), (0x30A050, 0xE0B020), (0x9040C0, 0x40C0C0),
                                      (0xC0C040, 0x808080), (0xE04030, 0x30A050), (0x3060D0, 0xE0B020),
                                      (0x9040C0, 0xC0C040), (0x40C0C0, 0x808080)]

    override func setUpWithError() throws {
        loop = try EventLoop()
        dir = try TestPictures.temporaryDirectory(self)
        paths = try halves.enumerated().map { i, colours in
            try TestPictures.write(TestPictures.jpeg(TestPictures.stripes([colours.0, colours.1], width: 1024, height: 576)),
                                   "\(dir)/\(i).jpg")
        }
    }

    var spec: CardSpec { CardSpec(width: card.width, height: card.height, background: background) }

    func layout(selected: Int, x: Double = 32, moving: Bool = false) -> FrameLayout {
        FrameLayout(viewport: Size(width: 320, height: 180),
                    cards: [CardLayout(index: selected, x: x, y: 18, width: Double(card.width), height: Double(card.height),
                                       scale: 1, opacity: 1)],
                    selectedIndex: selected, itemCount: paths.count, pageCount: paths.count,
                    selectedPage: selected, isMoving: moving)
    }

    /// Records each decode the worker starts; `holdFull` blocks full-card decodes until released.
    final class Decodes: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [(index: Int, preview: Bool)] = []
        let fullGate = DispatchSemaphore(value: 0)
        let firstGate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let holdFull: Bool
        let holdFirst: Bool
        /// Set by `holdFullFromNow()`: full decodes started after it wait for `fullGate`.
        private var holdingLater = false
        init(holdFull: Bool = false, holdFirst: Bool = false) { self.holdFull = holdFull; self.holdFirst = holdFirst }
        func holdFullFromNow() { lock.withLock { holdingLater = true } }
        var log: [(index: Int, preview: Bool)] { lock.withLock { list } }
        func hook(_ index: Int, _ preview: Bool) {
            let first = lock.withLock { list.append((index, preview)); return list.count == 1 }
            if first && holdFirst { started.signal(); firstGate.wait() }
            if !preview && (holdFull || lock.withLock({ holdingLater })) { fullGate.wait() }
        }
    }

    /// The loop the stores hand their decodes to, and what they handed over.
    var loop: EventLoop!
    var delivered = DecodeWorker.Update()
    func deliver(_ update: DecodeWorker.Update) {
        delivered.ready += update.ready; delivered.failed += update.failed
    }

    /// A store that hands its decodes to the test's loop.
    func deliveringStore(beforeDecode: (@Sendable (Int, Bool) -> Void)? = nil) -> ImageStore {
        ImageStore(paths: paths, spec: spec, beforeDecode: beforeDecode, loop: loop) { [unowned self] in deliver($0) }
    }

    /// Turns the loop until `body` is true; returns the updates delivered meanwhile, nil after
    /// about 10 s (a turn waits up to 0.1 s for a delivery).
    func waitFor(_ store: ImageStore, _ body: () -> Bool) -> DecodeWorker.Update? {
        delivered = DecodeWorker.Update()
        for _ in 0..<100 where !body() { _ = try? loop.runOnce(timeoutMilliseconds: 100) }
        return body() ? delivered : nil
    }

    func testThePreviewSpecIsAnEighthAndSmallCardsHaveNone() throws {
        let preview = try XCTUnwrap(CardSpec(width: 1536, height: 864).preview)
        XCTAssertEqual([preview.width, preview.height], [192, 108])
        XCTAssertEqual(preview.byteCount, 82_944, "83 KB")
        let tall = try XCTUnwrap(CardSpec(width: 100, height: 800).preview)
        XCTAssertEqual([tall.width, tall.height], [16, 100], "at least 16 px")
        XCTAssertNil(CardSpec(width: 48, height: 27).preview, "a tiny card decodes as fast as its preview would")
    }

    /// The full decode is held: the frame shows the preview scaled into the card's exact
    /// rectangle (its colours where the full card has them, the background around), then the
    /// full card, which the ready update names so the loop redraws.
    func testAHeldDecodeShowsThePreviewInTheCardsRectThenTheFullCard() throws {
        let decodes = Decodes(holdFull: true)
        let store = deliveringStore(beforeDecode: decodes.hook)
        let config = CarouselConfig() // its page dots sit below y 170, clear of the checks
        let compositor = Compositor(config: config, store: store, adaptsToMotion: false)
        let frame = try XCTUnwrap(PixelImage(width: 320, height: 180))
        let shown = layout(selected: 2)
        XCTAssertNotNil(waitFor(store) { store.cards(for: shown)[2] != nil }, "the preview arrives")
        let preview = try XCTUnwrap(store.cards(for: shown)[2])
        XCTAssertTrue(preview.isPreview)
        XCTAssertEqual([preview.width, preview.height], [32, 18])
        XCTAssertTrue(compositor.compose(shown, into: frame.buffer))
        func checkPicture(_ what: String, inset: Int) {
            // The card's rectangle is x 32..<288, y 18..<162; each half of it one colour.
            for (x, colour) in [(32 + inset, halves[2].0), (287 - inset, halves[2].1)] {
                for y in [18 + inset, 90, 161 - inset] {
                    assertColour(frame.pixel(x: x, y: y), colour, tolerance: 6, "\(what) at (\(x), \(y))")
                }
            }
            for (x, y) in [(31, 90), (288, 90), (160, 17), (160, 162)] {
                assertColour(frame.pixel(x: x, y: y), background.value, "\(what): background just outside, (\(x), \(y))")
            }
        }
        // Eight-fold upscaling blends the outermost half preview pixel (4 px) into the border.
        checkPicture("preview", inset: 6)
        XCTAssertFalse(compositor.compose(shown, into: frame.buffer), "nothing changed: nothing drawn")

        decodes.fullGate.signal()
        let update = try XCTUnwrap(waitFor(store) { store.cards(for: shown)[2]?.isPreview == false }, "the full card arrives")
        for _ in 0..<8 { decodes.fullGate.signal() } // the neighbours' full decodes
        XCTAssertTrue(update.ready.contains(2), "the ready update names the card on screen, so the loop redraws")
        let full = try XCTUnwrap(store.cards(for: shown)[2])
        XCTAssertEqual([full.width, full.height], [card.width, card.height])
        XCTAssertTrue(compositor.compose(shown, into: frame.buffer), "the same layout, preview -> full: drawn again")
        checkPicture("full card", inset: 0)
    }

    /// Decodes: the held first one, then previews of the wanted cards, the full card on screen,
    /// the previews of the seven nearest, the other wanted full cards, the last previews; each
    /// group the selected card first, then the way the strip moved (back, here), then the rest.
    func testDecodeOrderIsSelectedThenTheDirectionOfMotionThenTheRest() throws {
        let decodes = Decodes(holdFirst: true)
        let store = deliveringStore(beforeDecode: decodes.hook)
        _ = store.cards(for: layout(selected: 4))
        XCTAssertEqual(decodes.started.wait(timeout: .now() + 10), .success)
        _ = store.cards(for: layout(selected: 3)) // paged back: 4 -> 3
        decodes.firstGate.signal()
        // Not waitUntilPrefetched: blocking on cards puts their full decodes first.
        XCTAssertNotNil(waitFor(store) { decodes.log.count >= 12 && store.previewCount == paths.count })
        store.waitUntilIdle() // and nothing more is decoded
        let log = decodes.log.map { "\($0.index)\($0.preview ? "p" : "")" }
        // At rest: selected 3, neighbours 2 and 4, the next card forward 5. Behind (down) first.
        XCTAssertEqual(log, ["4p", "3p", "2p", "5p", "3", "1p", "0p", "6p", "2", "4", "5", "7p"])
        XCTAssertEqual(store.previewCount, paths.count, "all eight previews fit the budget")
    }

    func testTheDirectionFollowsTheEngine() {
        var config = CarouselConfig()
        config.interval = 0
        var engine = CarouselEngine(config: config, itemCount: 8, viewport: Size(width: 1280, height: 720), now: 0)
        var motion = MotionDirection()
        _ = motion.update(engine.layout())
        _ = engine.page(by: -1, now: 0)
        _ = engine.update(now: 0.1)
        XCTAssertEqual(motion.update(engine.layout()), -1, "paging back")
        _ = engine.update(now: 5)
        XCTAssertEqual(motion.update(engine.layout()), -1, "kept at rest")
        _ = engine.page(by: 1, now: 5)
        _ = engine.update(now: 5.1)
        XCTAssertEqual(motion.update(engine.layout()), 1, "paging forward")
        // A drag without a new selection: the selected card moving right brings earlier cards in.
        var moved = layout(selected: 3, x: 32)
        XCTAssertEqual(motion.update(moved), 1)
        moved.cards[0].x = 40
        XCTAssertEqual(motion.update(moved), -1)
    }

    /// Once the previews are in (at rest), full decodes stop finishing (a very slow box): a
    /// real engine's fling across five cards shows every card it passes, never the background
    /// colour, and comes to rest on the preview of the card it lands on.
    func testAFlingAcrossManyCardsShowsPreviewsNeverTheBackground() throws {
        let decodes = Decodes()
        addTeardownBlock { for _ in 0..<64 { decodes.fullGate.signal() } }
        paths += paths // 16 cards
        var config = CarouselConfig()
        config.interval = 0
        config.gesture.maxPagesPerGesture = 5
        let viewport = Size(width: 640, height: 360)
        var engine = CarouselEngine(config: config, itemCount: paths.count, viewport: viewport, now: 0)
        let spec = CardSpec(config: config, maxImagePixels: ShellSettings().media.maxImagePixels,
                            cardWidth: config.cardWidth.resolve(in: viewport.width),
                            cardHeight: config.cardHeight.resolve(in: viewport.height))
        let held = deliveringStore(beforeDecode: decodes.hook)
        XCTAssertNotNil(spec.preview, "\(spec.width)x\(spec.height) cards have previews")
        _ = held.cards(for: engine.layout())
        XCTAssertNotNil(waitFor(held) { held.previewCount == paths.count }, "every preview fits the budget and is decoded")
        decodes.holdFullFromNow()
        _ = engine.page(by: 5, now: 0)
        var previewFrames = 0, passed = Set<Int>()
        for step in 1...120 {
            _ = engine.update(now: Double(step) / 60)
            let layout = engine.layout()
            let shown = held.cards(for: layout)
            for card in layout.cards {
                XCTAssertNotNil(shown[card.index], "frame \(step): card \(card.index) is not the background colour")
                passed.insert(card.index)
            }
            if layout.cards.contains(where: { shown[$0.index]?.isPreview == true }) { previewFrames += 1 }
        }
        XCTAssertTrue(Set([1, 2, 3, 4, 5]).isSubset(of: passed), "the fling passed five cards: \(passed.sorted())")
        XCTAssertFalse(engine.isMoving)
        XCTAssertEqual(held.cards(for: engine.layout())[5]?.isPreview, true, "at rest on card 5, its full decode held")
        XCTAssertGreaterThan(previewFrames, 0)
    }

    /// The preview window is what `cache_mb / previewShare` holds, nearest first, no index twice.
    func testThePreviewWindowIsBudgetedAndNearestFirst() {
        let many = (0..<10_000).map { "\(dir)/missing-\($0).jpg" }
        let big = CardSpec(width: 1536, height: 864)
        let store = ImageStore(paths: many, spec: big, cacheMB: 4096)
        let window = store.previewWindow(selected: 9_999, spec: big, direction: 1)
        XCTAssertEqual(window.count, 4096 * 1_048_576 / ImageStore.previewShare / 82_944)
        XCTAssertEqual(Set(window).count, window.count)
        XCTAssertEqual(store.previewsAhead, 7)
        XCTAssertEqual(Array(window.prefix(9)), [9_999, 0, 1, 2, 9_998, 9_997, 9_996, 3, 4],
                       "the seven nearest first: selected, forward (wrapping), behind; then the rest, forward first")
        let daemon = ImageStore(paths: many, spec: big)
        XCTAssertEqual(daemon.previewWindow(selected: 0, spec: big).count, 25, "2 MB of the default 64")
        XCTAssertEqual(ImageStore(paths: paths, spec: CardSpec(width: 48, height: 27)).previewWindow(selected: 0, spec: CardSpec(width: 48, height: 27)),
                       [], "cards too small for previews")
    }

    /// A reload's new store starts with the old one's previews (by path), as with its cards.
    func testAReplacementStoreKeepsThePreviews() throws {
        let old = deliveringStore()
        _ = old.cards(for: layout(selected: 0))
        XCTAssertNotNil(waitFor(old) { old.previewCount == paths.count })
        let decodes = Decodes()
        let new = ImageStore(paths: Array(paths.reversed()), spec: spec, replacing: old, beforeDecode: decodes.hook)
        XCTAssertEqual(new.previewCount, paths.count, "carried, at their new indices")
        new.waitUntilPrefetched(for: layout(selected: 0))
        XCTAssertFalse(decodes.log.contains { $0.preview }, "no preview decoded again")
    }

    /// Whoever blocks for cards (render, the benchmark) gets the full ones first, no previews before them.
    func testWaitingForCardsDecodesThemFirstWithoutPreviews() throws {
        let decodes = Decodes()
        let store = ImageStore(paths: paths, spec: spec, beforeDecode: decodes.hook)
        store.waitUntilLoaded(indices: [6])
        XCTAssertEqual(decodes.log.first?.index, 6)
        XCTAssertEqual(decodes.log.first?.preview, false)
        XCTAssertFalse(decodes.log.contains { $0.index == 6 && $0.preview })
    }

    func testACorruptFileGetsNeitherPreviewNorCard() throws {
        // A valid header followed by markers where compressed data should be (as BadInputTests).
        var bytes = try TestPictures.jpeg(TestPictures.noise(width: 1024, height: 576))
        let sos = try XCTUnwrap((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        for i in stride(from: sos + 20, to: bytes.count - 2, by: 2) { bytes[i] = 0xFF; bytes[i + 1] = 0xC8 }
        paths[5] = try TestPictures.write(bytes, "\(dir)/corrupt.jpg")
        let decodes = Decodes()
        let store = deliveringStore(beforeDecode: decodes.hook)
        var failed: [Int] = []
        let lines = capturingLog {
            _ = store.cards(for: layout(selected: 5))
            failed = waitFor(store) { store.failure(at: 5) != nil }?.failed ?? []
        }
        XCTAssertTrue(failed.contains(5) || store.drainReady().failed.contains(5), "reported as failed")
        XCTAssertNil(store.cards(for: layout(selected: 5))[5], "no preview, no card: skipped as before")
        XCTAssertEqual(decodes.log.filter { $0.index == 5 }.count, 1, "tried once, as a preview, never again")
        XCTAssertEqual(lines.filter { $0.1.contains("skipping") && $0.1.contains("corrupt.jpg") }.count, 1)
        store.waitUntilLoaded(indices: [4, 6])
        XCTAssertNotNil(store.cards(for: layout(selected: 4))[4], "its neighbours decode")
    }
}
