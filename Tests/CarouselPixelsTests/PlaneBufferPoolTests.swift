import CarouselEngine
import Foundation
import XCTest
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// The plane path's buffers: a picture a spare still holds is shown with nothing copied, so a
/// short playlist pages with no copy once round; a longer one copies one card a page, into a
/// spare, never a new buffer.
final class PlaneBufferPoolTests: XCTestCase {
    final class FakeBuffer: PlaneBuffer {
        let width: Int, height: Int
        var picture: String?
        init(width: Int, height: Int) { self.width = width; self.height = height }
    }

    /// The plane path seen from the pool: a store that decodes a picture again (a new card
    /// object, the same content) once it has left its window, and a display that commits
    /// every frame and checks what each buffer shows.
    struct Pager {
        let paths: [String]
        let spec = CardSpec(width: 64, height: 36)
        var pool = PlaneBufferPool<FakeBuffer>()
        var cards: [Int: Card] = [:]
        var made = 0
        /// Cards copied for a frame (in the middle of a page change), not readied at rest.
        var copiedInFrames = 0

        mutating func card(_ index: Int) throws -> Card {
            if let card = cards[index] { return card }
            let card = try XCTUnwrap(Card(width: spec.width, height: spec.height, background: RGB(0)))
            let path = paths[index]
            card.content = CardContent(path: path, file: try XCTUnwrap(FileStamp(path: path)), spec: spec)
            cards[index] = card
            return card
        }

        func preview(_ index: Int) throws -> Card {
            let small = CardSpec(width: spec.width / 8, height: spec.height / 8)
            let card = try XCTUnwrap(Card(width: small.width, height: small.height, background: RGB(0)))
            card.content = CardContent(path: paths[index], file: try XCTUnwrap(FileStamp(path: paths[index])), spec: small)
            return card
        }

        /// One frame showing `visible` (playlist indices); the store keeps only those.
        /// `previews`: their previews, smaller cards decoded first.
        mutating func frame(_ visible: [Int], previews: Bool = false) throws {
            for index in visible {
                let card = try previews ? preview(index) : card(index)
                let buffer = pool.buffer(for: card) { width, height in
                    made += 1
                    return FakeBuffer(width: width, height: height)
                } fill: {
                    copiedInFrames += 1
                    $0.picture = card.content?.path
                }
                XCTAssertEqual(buffer.picture, card.content?.path, "the buffer shows the card's picture")
            }
            pool.committed()
            cards = cards.filter { visible.contains($0.key) }
        }

        /// At rest on `page`: the daemon readies the cards the pages either side bring, the next
        /// one first.
        mutating func rest(on page: Int) throws {
            let sources = try [at(page + 2), at(page - 2)].map { try card($0) }
            pool.prepare(sources) { width, height in
                made += 1
                return FakeBuffer(width: width, height: height)
            } fill: { source, buffer in buffer.picture = source.content?.path }
        }

        func at(_ index: Int) -> Int { ((index % paths.count) + paths.count) % paths.count }

        /// A page change forward from `page`, as the default layout shows it: three cards, the
        /// one behind leaves, two, the next one forward comes in, three. `ready`: the daemon
        /// readies the next cards at rest first.
        mutating func page(from page: Int, ready: Bool = false) throws {
            if ready { try rest(on: page) }
            for _ in 0..<3 { try frame([at(page - 1), at(page), at(page + 1)]) }
            for _ in 0..<8 { try frame([at(page), at(page + 1)]) }
            for _ in 0..<8 { try frame([at(page), at(page + 1), at(page + 2)]) }
        }
    }

    func pictures(_ count: Int) throws -> [String] {
        let dir = try TestPictures.temporaryDirectory(self)
        return (0..<count).map { i in
            let path = "\(dir)/\(i).png"
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([UInt8(i)])))
            return path
        }
    }

    func testFivePicturesPageWithNoCopyOnceRound() throws {
        var pager = Pager(paths: try pictures(5))
        try pager.frame([4, 0, 1])
        for page in 0..<5 { try pager.page(from: page) }
        XCTAssertEqual(pager.pool.copies, 5, "each picture copied once in the first round")
        for page in 5..<20 { try pager.page(from: page) }
        XCTAssertEqual(pager.pool.copies, 5, "three more rounds copy nothing: the spares hold the pictures")
        XCTAssertEqual(pager.made, PlaneBufferPool<FakeBuffer>.buffersKept, "one buffer a picture")
    }

    /// The plane path with the engine's own layouts and the image store's cards (a picture
    /// that leaves the store's window is decoded again: a new card object), at 1920x1080.
    struct StorePager {
        var engine: CarouselEngine
        let store: ImageStore
        var pool = PlaneBufferPool<FakeBuffer>()
        var now = 0.0
        /// Buffers made: a box, so the pool's `make` can count while the pool is being changed.
        let buffersMade = Box()
        var made: Int { buffersMade.count }
        var cardsSeen = Set<ObjectIdentifier>()
        /// The cards seen, held: a card the store dropped would otherwise free its address for
        /// the card made again, which `cardsSeen` would then take for the same one.
        var cardsHeld: [Card] = []

        final class Box {
            var count = 0
            func make(_ width: Int, _ height: Int) -> FakeBuffer {
                count += 1
                return FakeBuffer(width: width, height: height)
            }
        }

        init(pictures count: Int, in test: XCTestCase) throws {
            let dir = try TestPictures.temporaryDirectory(test)
            let paths = try (0..<count).map { i in
                try TestPictures.writePNG(TestPictures.solid(0x203040 * UInt32(i + 1), width: 64, height: 36), "\(dir)/\(i).png")
            }
            var config = CarouselConfig()
            config.interval = 0
            config.emphasis.sideScale = 1
            let viewport = Size(width: 1920, height: 1080)
            engine = CarouselEngine(config: config, itemCount: paths.count, viewport: viewport, now: 0)
            store = ImageStore(paths: paths, spec: CardSpec(config: config, maxImagePixels: 1 << 24,
                                                            cardWidth: config.cardWidth.resolve(in: viewport.width),
                                                            cardHeight: config.cardHeight.resolve(in: viewport.height)))
        }

        /// At rest, as the daemon does it: what the store decodes meanwhile is there, then the
        /// engine's neighbour layouts' decoded cards (asking the store for none) are readied.
        mutating func readyAtRest() {
            store.waitUntilIdle()
            let sources = engine.neighbourLayouts().flatMap(store.decodedCards(for:))
            pool.prepare(sources, make: buffersMade.make) { _, _ in }
        }

        /// One page change forward, a frame each 60th of a second, every card on a buffer.
        mutating func pageChange() throws {
            _ = engine.page(by: 1, now: now)
            repeat {
                now += 1.0 / 60
                _ = engine.update(now: now)
                let layout = engine.layout()
                store.waitUntilLoaded(for: layout)
                let cards = store.cards(for: layout)
                for placed in layout.cards {
                    let card = try XCTUnwrap(cards[placed.index])
                    if cardsSeen.insert(ObjectIdentifier(card)).inserted { cardsHeld.append(card) }
                    _ = pool.buffer(for: card, make: buffersMade.make) { _ in }
                }
                pool.committed()
            } while engine.isMoving
        }
    }

    /// Five pictures with the engine and the store: no copy once round.
    func testFivePicturesWithTheEngineAndTheStore() throws {
        var pager = try StorePager(pictures: 5, in: self)
        var copiesAfterFirstRound = 0
        for page in 0..<15 {
            if page == 5 { copiesAfterFirstRound = pager.pool.copies }
            try pager.pageChange()
        }
        XCTAssertGreaterThan(pager.cardsSeen.count, 5, "the store made some pictures' cards again")
        XCTAssertEqual(copiesAfterFirstRound, 5, "each picture copied once in the first round")
        XCTAssertEqual(pager.pool.copies, 5, "ten more page changes copy nothing")
        XCTAssertLessThanOrEqual(pager.made, PlaneBufferPool<FakeBuffer>.buffersKept)
    }

    /// Readied at rest as the daemon does it, six pictures: the frames of the page changes copy
    /// nothing once the first page change is over (one copy a page, at rest).
    func testSixPicturesReadiedFromTheEngineAndTheStore() throws {
        var pager = try StorePager(pictures: 6, in: self)
        var (inFrames, readied) = ([Int](), [Int]())
        for _ in 0..<12 {
            pager.readyAtRest()
            readied.append(pager.pool.copies)
            try pager.pageChange()
            inFrames.append(pager.pool.copies - readied.last!)
        }
        XCTAssertEqual(Array(inFrames.dropFirst()), Array(repeating: 0, count: 11), "no copy in a page change's frames after the first")
        XCTAssertEqual(readied[11] - readied[5], 6, "six page changes once round: one copy each, readied at rest")
    }

    /// Previews shown first (smaller buffers) leave their places to the pictures.
    func testPreviewsShownFirstTakeNoPicturesPlace() throws {
        var pager = Pager(paths: try pictures(5))
        for _ in 0..<4 { try pager.frame([4, 0, 1], previews: true) }
        try pager.frame([4, 0, 1])
        for page in 0..<5 { try pager.page(from: page) }
        let copies = pager.pool.copies
        for page in 5..<15 { try pager.page(from: page) }
        XCTAssertEqual(pager.pool.copies, copies, "no copy once round")
    }

    func testSixPicturesCopyOneCardAPageIntoASpare() throws {
        var pager = Pager(paths: try pictures(6))
        try pager.frame([5, 0, 1])
        for page in 0..<6 { try pager.page(from: page) }
        let (copies, made) = (pager.pool.copies, pager.made)
        for page in 6..<18 { try pager.page(from: page) }
        XCTAssertEqual(pager.pool.copies - copies, 12, "one copy a page: the picture coming in left three pages ago")
        XCTAssertEqual(pager.made, made, "into a spare: no buffer made after the first round")
        XCTAssertEqual(pager.pool.count.spares, PlaneBufferPool<FakeBuffer>.buffersKept - 3, "at rest: three cards show")
    }

    /// Readied at rest, the card coming in is copied before its page change: the frames of a
    /// page change copy nothing, with as many copies and buffers as without readying.
    func testSixPicturesReadiedAtRestCopyNothingInAPageChange() throws {
        var pager = Pager(paths: try pictures(6))
        try pager.frame([5, 0, 1])
        for page in 0..<6 { try pager.page(from: page, ready: true) }
        let (copies, made, inFrames) = (pager.pool.copies, pager.made, pager.copiedInFrames)
        for page in 6..<18 { try pager.page(from: page, ready: true) }
        XCTAssertEqual(pager.copiedInFrames, inFrames, "no copy in the frames of twelve page changes")
        XCTAssertEqual(pager.pool.copies - copies, 12, "one copy a page, at rest")
        XCTAssertEqual(pager.made, made, "into a spare: no buffer made after the first round")
        XCTAssertLessThanOrEqual(pager.made, PlaneBufferPool<FakeBuffer>.buffersKept + 1, "four cards of a frame and two spares at most")
    }

    func testFivePicturesReadiedAtRestCopyEachOnce() throws {
        var pager = Pager(paths: try pictures(5))
        try pager.frame([4, 0, 1])
        for page in 0..<20 { try pager.page(from: page, ready: true) }
        XCTAssertEqual(pager.pool.copies, 5, "each picture once")
        XCTAssertEqual(pager.copiedInFrames, 3, "only the first frame's three cards are copied for a frame")
        XCTAssertEqual(pager.made, PlaneBufferPool<FakeBuffer>.buffersKept)
    }

    func testAnEditedPictureIsCopiedAgain() throws {
        var pager = Pager(paths: try pictures(5))
        try pager.frame([4, 0, 1])
        for page in 0..<5 { try pager.page(from: page) }
        let copies = pager.pool.copies
        // Picture 2 is rewritten while it is off screen (a new size and mtime: a new stamp).
        XCTAssertTrue(FileManager.default.createFile(atPath: pager.paths[2], contents: Data([9, 9, 9])))
        for page in 5..<10 { try pager.page(from: page) }
        XCTAssertEqual(pager.pool.copies - copies, 1, "only the edited picture is copied again")
    }

    /// The store lets go of a card that leaves its window: the card's memory must go then, not
    /// stay held by a buffer that shows its picture.
    func testABufferDoesNotHoldACardWithContent() throws {
        var pager = Pager(paths: try pictures(5))
        weak var shown: Card?
        try pager.frame([0])
        shown = pager.cards[0]
        XCTAssertNotNil(shown)
        pager.cards.removeAll()
        XCTAssertNil(shown, "freed once the store lets go, though its buffer still shows it")
        XCTAssertEqual(pager.pool.count.cards, 1)
    }

    func testACardWithoutContentIsKeptByTheCardItself() throws {
        var pool = PlaneBufferPool<FakeBuffer>()
        let a = try XCTUnwrap(Card(width: 8, height: 8, background: RGB(0)))
        let b = try XCTUnwrap(Card(width: 8, height: 8, background: RGB(0)))
        func show(_ card: Card) { _ = pool.buffer(for: card) { FakeBuffer(width: $0, height: $1) } fill: { _ in } }
        show(a); show(a)
        XCTAssertEqual(pool.copies, 1, "the same card, one copy")
        show(b)
        XCTAssertEqual(pool.copies, 2, "another card without content is copied: its pixels may differ")
    }
}
