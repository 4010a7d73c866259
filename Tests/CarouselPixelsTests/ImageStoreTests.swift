@testable import CarouselCore
import CarouselEngine
import CLinux
import Glibc
import XCTest
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// The image store: decodes on its worker, hands what finished to the loop, keeps a
/// bounded window of cards around the selected one.
final class ImageStoreTests: XCTestCase {
    var dir = ""
    var paths: [String] = []

    override func setUpWithError() throws {
        dir = try TestPictures.temporaryDirectory(self)
        let colours: [UInt32] = [0xE04030, 0x30A050, 0x3060D0, 0xE0B020, 0x9040C0, 0x40C0C0, 0xC0C040, 0x808080]
        paths = try colours.enumerated().map { i, colour in
            try TestPictures.writePNG(TestPictures.solid(colour, width: 64, height: 36), "\(dir)/\(i).png")
        }
    }

    func layout(selected: Int, count: Int? = nil) -> FrameLayout {
        FrameLayout(viewport: Size(width: 64, height: 36),
                    cards: [CardLayout(index: selected, x: 8, y: 4, width: 48, height: 27, scale: 1, opacity: 1)],
                    selectedIndex: selected, itemCount: count ?? paths.count, pageCount: count ?? paths.count,
                    selectedPage: selected, isMoving: false)
    }

    func testDecodesOnTheWorkerAndHandsThemToTheLoop() throws {
        let loop = try EventLoop()
        let loopThread = pthread_self()
        var arrived: [Int] = []
        var offLoop = 0
        let store = ImageStore(paths: paths, spec: CardSpec(width: 48, height: 27), neighbours: 2, loop: loop) { update in
            XCTAssertFalse(update.isEmpty, "an empty update is not delivered")
            arrived += update.ready
            if pthread_equal(pthread_self(), loopThread) == 0 { offLoop += 1 }
        }
        XCTAssertEqual(try loop.runOnce(timeoutMilliseconds: 0), 0, "nothing decoded before anything is asked for")
        // The first request cannot block on decoding: it only queues the work.
        XCTAssertTrue(store.cards(for: layout(selected: 3)).isEmpty, "card 3 is still being decoded")
        for _ in 0..<100 where arrived.count < 6 { try loop.runOnce(timeoutMilliseconds: 10_000) }
        XCTAssertEqual(Set(arrived), [3, 4, 2, 5, 1, 6], "visible card, two neighbours each side, at rest the next one forward")
        XCTAssertEqual(arrived.count, 6, "each once")
        XCTAssertEqual(offLoop, 0, "delivered on the loop's thread")
        store.waitUntilIdle()
        XCTAssertEqual(store.drainReady(), ImageStore.Update(), "everything was delivered, nothing else to decode")
        let cards = store.cards(for: layout(selected: 3))
        XCTAssertEqual(Array(cards.keys), [3])
        assertColour(try XCTUnwrap(cards[3]).pixel(x: 24, y: 13), 0xE0B020, "card 3's picture")
    }

    /// A reload replaces the store: the cards on screen come along (by path, at their new
    /// index), so the first frame after the swap shows them at once, with no decode.
    func testAReplacementStoreKeepsTheDecodedCards() throws {
        let spec = CardSpec(width: 48, height: 27)
        let old = ImageStore(paths: paths, spec: spec)
        old.waitUntilLoaded(for: layout(selected: 3))
        let shown = try XCTUnwrap(old.cards(for: layout(selected: 3))[3])
        // The new playlist: card 3's picture is now second, two others are gone.
        let reordered = [paths[5], paths[3], paths[6]]
        let new = ImageStore(paths: reordered, spec: spec, replacing: old)
        let cards = new.cards(for: layout(selected: 1, count: 3))
        XCTAssertTrue(cards[1] === shown, "the same decoded card, at its new index")
        new.waitUntilIdle()
        XCTAssertFalse(new.drainReady().ready.contains(1), "nothing decoded again for it")
        // A different card size drops what was carried: it was decoded for the old size.
        let resized = ImageStore(paths: reordered, spec: CardSpec(width: 40, height: 20), replacing: new)
        let other = FrameLayout(viewport: Size(width: 64, height: 36),
                                cards: [CardLayout(index: 1, x: 8, y: 4, width: 40, height: 20, scale: 1, opacity: 1)],
                                selectedIndex: 1, itemCount: 3, pageCount: 3, selectedPage: 1, isMoving: false)
        XCTAssertNil(resized.cards(for: other)[1], "decoded again at the new size")
    }

    /// A page change over cards all decoded leaves the decode thread asleep: the cards coming
    /// and going, and the spring's overshoot turning the direction, change the ask but bring it
    /// no work (each wake-up is a context switch each way, on a one-core board a frame's worth).
    func testPagingOverDecodedCardsWakesNoDecodeThread() throws {
        let five = Array(paths.prefix(5))
        var config = CarouselConfig()
        config.interval = 0
        let viewport = Size(width: 640, height: 360)
        var engine = CarouselEngine(config: config, itemCount: five.count, viewport: viewport, now: 0)
        let spec = CardSpec(config: config, maxImagePixels: 1 << 24, cardWidth: config.cardWidth.resolve(in: viewport.width),
                            cardHeight: config.cardHeight.resolve(in: viewport.height))
        let store = ImageStore(paths: five, spec: spec, neighbours: 2)   // the window holds all five
        store.waitUntilPrefetched(for: engine.layout())
        _ = store.cards(for: engine.layout())
        store.waitUntilIdle()
        let wakes = store.workerWakes
        var now = 0.0, frames = 0
        for _ in 0..<5 {
            _ = engine.page(by: 1, now: now)
            repeat {
                now += 1.0 / 60
                _ = engine.update(now: now)
                let layout = engine.layout()
                XCTAssertEqual(store.cards(for: layout).count, Set(layout.cards.map(\.index)).count, "every card is there")
                frames += 1
            } while engine.isMoving
        }
        XCTAssertGreaterThan(frames, 100)
        XCTAssertEqual(store.workerWakes, wakes, "five page changes, no wake-up")
    }

    func testWindowWrapsAroundThePlaylistAndRespectsTheBudget() {
        let store = ImageStore(paths: paths, spec: CardSpec(width: 48, height: 27), neighbours: 2)
        let spec = CardSpec(width: 48, height: 27)
        // In decode order: the selected card, then forward (the default motion), then behind.
        XCTAssertEqual(store.window(visible: [0], selected: 0, spec: spec), [0, 1, 2, 7, 6])
        XCTAssertEqual(store.window(visible: [7, 6, 0], selected: 7, spec: spec), [7, 0, 1, 6, 5])
        XCTAssertEqual(store.window(visible: [7, 6, 0], selected: 7, spec: spec, direction: -1), [7, 6, 5, 0, 1],
                       "moving back: the cards behind first")
        // The default: one neighbour each side of the selected card, beyond the visible ones.
        let daemon = ImageStore(paths: paths, spec: spec)
        XCTAssertEqual(daemon.neighbours, 1)
        XCTAssertEqual(daemon.window(visible: [7, 0, 1], selected: 0, spec: spec), [0, 1, 7], "moving")
        XCTAssertEqual(daemon.window(visible: [7, 0, 1], selected: 0, spec: spec, atRest: true), [0, 1, 2, 7],
                       "at rest the next card forward is prefetched")
        XCTAssertEqual(daemon.window(visible: [7, 0, 1], selected: 1, spec: spec), [1, 2, 0, 7], "paging on: the next card decodes at once")
        XCTAssertEqual(daemon.window(visible: [0], selected: 0, spec: spec), [0, 1, 7], "neighbours off screen are prefetched")
        XCTAssertEqual(daemon.window(visible: [7, 0, 1], selected: 7, spec: spec, atRest: true), [7, 0, 1, 2, 6],
                       "the forward card is the first one not kept, wrapping round the playlist")
        // A 1 MB budget holds one 1000x500 card: only the visible one is kept.
        let small = ImageStore(paths: paths, spec: CardSpec(width: 1000, height: 500), cacheMB: 1)
        XCTAssertEqual(small.window(visible: [4], selected: 4, spec: CardSpec(width: 1000, height: 500)), [4])
    }

    func testCacheStaysBoundedWhileCyclingThroughThePlaylist() {
        let store = ImageStore(paths: paths, spec: CardSpec(width: 48, height: 27), neighbours: 1)
        for round in 0..<2 {
            for selected in paths.indices {
                store.waitUntilLoaded(for: layout(selected: selected))
                XCTAssertEqual(store.cards(for: layout(selected: selected)).count, 1, "round \(round), card \(selected)")
                XCTAssertLessThanOrEqual(store.cachedCount, 4, "visible card, one neighbour each side, the next one forward")
            }
        }
    }

    func testPrefetchAtRestIncludesTheNextCardForward() {
        let store = ImageStore(paths: paths, spec: CardSpec(width: 48, height: 27))
        store.waitUntilPrefetched(for: layout(selected: 2))
        XCTAssertEqual(store.cachedCount, 4, "visible 2, neighbours 1 and 3, and 4 ahead")
        XCTAssertEqual(Array(store.cards(for: layout(selected: 4)).keys), [4], "the next page's card is already there")
    }

    func testNewCardSizeReplacesTheCache() throws {
        let store = ImageStore(paths: paths, spec: CardSpec(width: 48, height: 27))
        store.waitUntilLoaded(for: layout(selected: 0))
        XCTAssertEqual(store.cards(for: layout(selected: 0))[0]?.width, 48)
        var wider = layout(selected: 0)
        wider.cards[0].width = 60
        XCTAssertNil(store.cards(for: wider)[0], "the old size is dropped, the new one decodes")
        store.waitUntilLoaded(for: wider)
        XCTAssertEqual(store.cards(for: wider)[0]?.width, 60)
    }

    /// Mostly for the ThreadSanitizer run (scripts/tsan): stores are retired with decodes in
    /// flight while the loop side changes card sizes, takes the delivered updates, reads arrived cards and
    /// swaps the log sink as tests do, and the decode threads log skipped files meanwhile.
    func testStoresRetiredWithDecodesInFlightShareNothingUnlocked() throws {
        let big = try (0..<3).map { try TestPictures.writePNG(TestPictures.noise(width: 800, height: 600), "\(dir)/big\($0).png") }
        // Cut in half: the decode fails late, so a store is often retired with a failing decode
        // in flight, whose thread then logs the skip.
        let whole = try XCTUnwrap(FileManager.default.contents(atPath: big[0]))
        let broken = try TestPictures.write(Array(whole.prefix(whole.count / 2)), "\(dir)/broken.png")
        let mixed = [broken, big[0], broken, big[1], big[2], paths[0]]
        for round in 0..<40 {
            Log.sink = { _, _ in } // the decode threads log "skipping .../broken.png" now and then
            let loop = try EventLoop()
            var store: ImageStore? = ImageStore(paths: mixed, spec: CardSpec(width: 80, height: 60), loop: loop) { _ in }
            for step in 0..<5 {
                var shown = layout(selected: (round + step) % mixed.count, count: mixed.count)
                shown.cards[0].width = Double(40 + 8 * step)
                for card in store!.cards(for: shown).values { XCTAssertEqual(card.width, 40 + 8 * step) }
                try loop.runOnce(timeoutMilliseconds: 3)  // a delivery, or 3 ms of decoding
            }
            store = nil // retired mid-decode: stop() returns at once, the thread finishes alone
            Log.sink = nil
        }
        let store = ImageStore(paths: mixed, spec: CardSpec(width: 48, height: 27))
        store.waitUntilLoaded(for: layout(selected: 5, count: mixed.count))
        assertColour(try XCTUnwrap(store.cards(for: layout(selected: 5, count: mixed.count))[5]).pixel(x: 24, y: 13),
                     0xE04030, "the store after the retired ones works")
    }
}
