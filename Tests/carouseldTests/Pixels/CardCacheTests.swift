@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
import Foundation
import Glibc
import XCTest
@testable import carouseld
@testable import CarouselPixels
import TestSupport
import PixelsTestSupport

/// The card cache on disk: a hit gives the decoded card's pixels, a changed source misses, a
/// damaged entry is detected (logged, removed, decoded again), the bound and the playlists
/// prune it, and an unusable directory switches it off with one warning.
final class CardCacheTests: XCTestCase {
    var dir = ""
    var cacheDir = ""
    var photo = ""
    var logged: [String] = []
    let spec = CardSpec(width: 40, height: 30)

    override func setUpWithError() throws {
        dir = try TestPictures.temporaryDirectory(self)
        cacheDir = dir + "/cache"
        photo = try TestPictures.writePNG(TestPictures.noise(width: 64, height: 48), "\(dir)/photo.png")
        logged = []
        Log.sink = { [unowned self] _, line in self.logged.append(line) }
    }

    override func tearDown() { Log.sink = nil }

    /// A cache over `cacheDir` and a counter of the decodes it asked for.
    final class Counting {
        var decodes = 0
        /// The card, and a miss written at once (the worker writes it when idle).
        func card(_ cache: CardCache, _ path: String, _ spec: CardSpec) throws -> Card {
            defer { cache.writePending() }
            return try cache.card(path: path, spec: spec) { () throws(ImageError) in
                decodes += 1
                return try ImageDecoder.makeCard(path: path, spec: spec)
            }
        }
    }

    func entries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cacheDir)) ?? []).filter { $0.hasSuffix(".card") }.sorted()
    }

    func assertSamePixels(_ a: Card, _ b: Card, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.width, b.width, file: file, line: line)
        XCTAssertEqual(a.height, b.height, file: file, line: line)
        XCTAssertEqual(memcmp(a.padded.base, b.padded.base, a.padded.byteCount), 0, "pixels differ", file: file, line: line)
    }

    func testHitAfterMissReturnsTheSamePixels() throws {
        let cache = try XCTUnwrap(CardCache(directory: cacheDir, megabytes: 16))
        let counting = Counting()
        let first = try counting.card(cache, photo, spec)
        XCTAssertEqual(counting.decodes, 1)
        XCTAssertEqual(entries().count, 1)
        let second = try counting.card(cache, photo, spec)
        XCTAssertEqual(counting.decodes, 1, "served from the cache")
        assertSamePixels(first, second)
        assertSamePixels(second, try ImageDecoder.makeCard(path: photo, spec: spec))
        _ = try counting.card(cache, photo, CardSpec(width: 20, height: 15))
        XCTAssertEqual(counting.decodes, 2, "another card size is another entry")
        XCTAssertEqual(entries().count, 2)
        XCTAssertTrue(logged.isEmpty, "\(logged)")
    }

    func testChangedMtimeOrSizeMisses() throws {
        let cache = try XCTUnwrap(CardCache(directory: cacheDir, megabytes: 16))
        let counting = Counting()
        _ = try counting.card(cache, photo, spec)
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 5), timespec(tv_sec: 1_000_000, tv_nsec: 5)]
        XCTAssertEqual(utimensat(AT_FDCWD, photo, &times, 0), 0)
        _ = try counting.card(cache, photo, spec)
        XCTAssertEqual(counting.decodes, 2, "a new mtime misses")
        // Same mtime, other content and size: a new picture written over the old one.
        _ = try TestPictures.writePNG(TestPictures.solid(0x3060D0, width: 64, height: 48), photo)
        XCTAssertEqual(utimensat(AT_FDCWD, photo, &times, 0), 0)
        let blue = try counting.card(cache, photo, spec)
        XCTAssertEqual(counting.decodes, 3, "a new size misses")
        assertColour(blue.pixel(x: 20, y: 15), 0x3060D0, "the new picture, not the cached old one")
        cache.prune()
        XCTAssertEqual(entries().count, 1, "older versions of the same photo at the same size are pruned")
    }

    func damage(_ body: (Int32, Int) -> Void) throws {
        let name = try XCTUnwrap(entries().first)
        let fd = open("\(cacheDir)/\(name)", O_RDWR)
        XCTAssertGreaterThanOrEqual(fd, 0)
        var info = stat()
        fstat(fd, &info)
        body(fd, Int(info.st_size))
        close(fd)
    }

    /// Flips one byte of an entry's pixels (200 bytes before its end).
    func flipPixelByte(_ fd: Int32, _ size: Int) {
        var byte: UInt8 = 0
        pread(fd, &byte, 1, off_t(size - 200))
        byte ^= 0x5A
        pwrite(fd, &byte, 1, off_t(size - 200))
    }

    func testCorruptedByteIsDetectedAndRebuilt() throws {
        let cache = try XCTUnwrap(CardCache(directory: cacheDir, megabytes: 16))
        let counting = Counting()
        let good = try counting.card(cache, photo, spec)
        try damage(flipPixelByte)
        let rebuilt = try counting.card(cache, photo, spec)
        XCTAssertEqual(counting.decodes, 2, "the damaged entry is not shown but decoded again")
        assertSamePixels(good, rebuilt)
        XCTAssertTrue(logged.contains { $0.contains("checksum mismatch") && $0.contains("decoding \(photo) again") }, "\(logged)")
        _ = try counting.card(cache, photo, spec)
        XCTAssertEqual(counting.decodes, 2, "the rebuilt entry is used")
    }

    /// An entry's pixels are checked at its first read in a run; read back again unchanged (a
    /// page change bringing the card back), they are not; once its file changed, they are.
    func testPixelsAreCheckedOnceUntilTheFileChanges() throws {
        let cache = try XCTUnwrap(CardCache(directory: cacheDir, megabytes: 16))
        let counting = Counting()
        let good = try counting.card(cache, photo, spec)
        for _ in 0..<3 { assertSamePixels(good, try counting.card(cache, photo, spec)) }
        XCTAssertEqual(counting.decodes, 1)
        XCTAssertEqual(cache.state.withLock { $0.pixelChecks }, 1, "checked at the first read only")
        XCTAssertEqual(cache.state.withLock { $0.checkedFiles.count }, 1, "each read's time stamp replaces the file as remembered")
        try damage { fd, size in
            flipPixelByte(fd, size)
            // Time stamps are coarse: a write in the same tick as the last read's could keep
            // them; a set modification time changes them whatever the tick.
            var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
            XCTAssertEqual(futimens(fd, &times), 0)
        }
        assertSamePixels(good, try counting.card(cache, photo, spec))
        XCTAssertEqual(counting.decodes, 2, "the changed entry was checked again, found damaged and decoded again")
        XCTAssertTrue(logged.contains { $0.contains("checksum mismatch") }, "\(logged)")
    }

    func testCorruptedHeaderIsDetected() throws {
        let cache = try XCTUnwrap(CardCache(directory: cacheDir, megabytes: 16))
        let counting = Counting()
        _ = try counting.card(cache, photo, spec)
        try damage { fd, _ in
            var byte: UInt8 = 0xFF
            pwrite(fd, &byte, 1, 20)
        }
        _ = try counting.card(cache, photo, spec)
        XCTAssertEqual(counting.decodes, 2)
        XCTAssertTrue(logged.contains { $0.contains("header checksum") }, "\(logged)")
    }

    func testTruncatedEntryIsDetectedAndRebuilt() throws {
        let cache = try XCTUnwrap(CardCache(directory: cacheDir, megabytes: 16))
        let counting = Counting()
        let good = try counting.card(cache, photo, spec)
        try damage { fd, size in XCTAssertEqual(ftruncate(fd, off_t(size / 2)), 0) }
        let rebuilt = try counting.card(cache, photo, spec)
        XCTAssertEqual(counting.decodes, 2)
        assertSamePixels(good, rebuilt)
        XCTAssertTrue(logged.contains { $0.contains("truncated") }, "\(logged)")
        try damage { fd, _ in XCTAssertEqual(ftruncate(fd, 10), 0) }
        _ = try counting.card(cache, photo, spec)
        XCTAssertEqual(counting.decodes, 3, "a cut header too")
    }

    func testBoundPrunesLeastRecentlyUsedFirst() throws {
        // Each 200x150 card is 122 KB: a 1 MB bound holds 8 of them.
        let big = CardSpec(width: 200, height: 150)
        let cache = try XCTUnwrap(CardCache(directory: cacheDir, megabytes: 1))
        let paths = try (0..<10).map { i in
            try TestPictures.writePNG(TestPictures.solid(0x101010 * UInt32(i + 1), width: 20, height: 15), "\(dir)/\(i).png")
        }
        let counting = Counting()
        for (i, path) in paths.prefix(8).enumerated() {
            _ = try counting.card(cache, path, big)
            // Explicit ages: photo 0 oldest, except photo 1, used last.
            let age = i == 1 ? 10 : 1000 - i
            var times = [timespec(tv_sec: time(nil) - age, tv_nsec: 0), timespec(tv_sec: time(nil) - age, tv_nsec: 0)]
            let name = try XCTUnwrap(CardCacheKey(path: path, spec: big).map { CardCache.entryName(path: path, key: $0) })
            XCTAssertEqual(utimensat(AT_FDCWD, "\(cacheDir)/\(name)", &times, 0), 0)
        }
        XCTAssertEqual(entries().count, 8)
        _ = try counting.card(cache, paths[8], big)
        _ = try counting.card(cache, paths[9], big)
        XCTAssertEqual(entries().count, 8, "two more, two pruned")
        let decodes = counting.decodes
        _ = try counting.card(cache, paths[1], big)
        XCTAssertEqual(counting.decodes, decodes, "photo 1 was used recently: kept")
        _ = try counting.card(cache, paths[0], big)
        XCTAssertEqual(counting.decodes, decodes + 1, "photo 0 was the least recently used: pruned")
        let total = entries().reduce(0) { total, name in
            var info = stat()
            return total + (stat("\(cacheDir)/\(name)", &info) == 0 ? Int(info.st_size) : 0)
        }
        XCTAssertLessThanOrEqual(total, 1_048_576)
    }

    func testZeroMegabytesSwitchesItOff() throws {
        let cache = try XCTUnwrap(CardCache(directory: cacheDir, megabytes: 0))
        let counting = Counting()
        _ = try counting.card(cache, photo, spec)
        _ = try counting.card(cache, photo, spec)
        XCTAssertEqual(counting.decodes, 2)
        XCTAssertEqual(entries(), [])
    }

    func testUnwritableDirectoryDisablesWithOneWarning() throws {
        // A directory under a regular file cannot be created even by root.
        XCTAssertNil(CardCache(directory: photo + "/cache", megabytes: 16))
        XCTAssertEqual(logged.count, 1)
        XCTAssertTrue(logged.first?.contains("the card cache is off") ?? false, "\(logged)")
        if geteuid() != 0 {
            try FileManager.default.createDirectory(atPath: cacheDir, withIntermediateDirectories: true)
            chmod(cacheDir, 0o500)
            defer { chmod(cacheDir, 0o700) }
            XCTAssertNil(CardCache(directory: cacheDir, megabytes: 16))
            XCTAssertEqual(logged.count, 2)
        }
        // The daemon's store decodes as without a cache.
        var settings = ShellSettings()
        settings.media.diskCacheMB = 16
        let store = ImageStore(paths: [photo], spec: spec,
                               cache: DaemonCardCache.open(commandLine: photo + "/cache", shell: settings,
                                                           environment: { [photo] in $0 == "RUNTIME_DIRECTORY" ? photo + "/run" : nil }).cache)
        store.waitUntilLoaded(indices: [0])
        XCTAssertNil(store.failure(at: 0))
        XCTAssertEqual(store.cachedCount, 1)
    }

    func testAWriteFailureWarnsOnceAndSwitchesOff() throws {
        let cache = try XCTUnwrap(CardCache(directory: cacheDir, megabytes: 16))
        rmdir(cacheDir)
        // A file where the directory was: every write fails from now on.
        _ = try TestPictures.write([1], cacheDir)
        let counting = Counting()
        _ = try counting.card(cache, photo, spec)
        _ = try counting.card(cache, photo, spec)
        XCTAssertEqual(counting.decodes, 2)
        XCTAssertEqual(logged.filter { $0.contains("cannot write") }.count, 1, "\(logged)")
    }

    func testFilesLeavingThePlaylistArePrunedWhenTheStoreIsBuilt() throws {
        let cache = try XCTUnwrap(CardCache(directory: cacheDir, megabytes: 16))
        let paths = try (0..<3).map { i in
            try TestPictures.writePNG(TestPictures.solid(0x202020 * UInt32(i + 1), width: 32, height: 24), "\(dir)/p\(i).png")
        }
        var store: ImageStore? = ImageStore(paths: paths, spec: spec, cache: cache)
        store?.waitUntilLoaded(indices: [0, 1, 2])
        store?.waitUntilIdle()
        XCTAssertEqual(entries().count, 3)
        // A reload drops p1 from the playlist: the new store's worker prunes it before decoding.
        let next = ImageStore(paths: [paths[0], paths[2]], spec: spec, replacing: store, cache: cache)
        store = nil
        next.waitUntilLoaded(indices: [0, 1])
        let kept = Set([paths[0], paths[2]].compactMap { path in CardCacheKey(path: path, spec: spec).map { CardCache.entryName(path: path, key: $0) } })
        // The cards came along from the old store, so nothing is decoded; the prune runs on the
        // worker thread when it is first idle, and waitUntilIdle means it has.
        next.waitUntilIdle()
        XCTAssertEqual(Set(entries()), kept)
    }

    /// A card decoded on a miss reaches the screen before the cache writes it: the write waits
    /// until the worker has nothing to decode (here, while the second card's decode is held).
    func testAMissIsWrittenOnlyWhenTheWorkerIsIdle() throws {
        let cache = try XCTUnwrap(CardCache(directory: cacheDir, megabytes: 16))
        let paths = try (0..<2).map { i in
            try TestPictures.writePNG(TestPictures.solid(0x303030 * UInt32(i + 1), width: 32, height: 24), "\(dir)/w\(i).png")
        }
        let second = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let worker = DecodeWorker(paths: paths, spec: spec, diskCache: cache, beforeDecode: { index, _ in
            if index == 1 { second.signal(); release.wait() }
        }, onResult: {})
        defer { worker.stop() }
        _ = worker.want([0, 1], spec: spec, visible: [0, 1])
        worker.start()
        XCTAssertEqual(second.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(worker.decoded([0]).count, 1, "card 0 is decoded and ready")
        XCTAssertEqual(entries(), [], "and not yet written: the worker is busy with card 1")
        XCTAssertTrue(cache.hasPendingWrites)
        release.signal()
        worker.waitUntilIdle()
        XCTAssertEqual(worker.decoded([0, 1]).count, 2)
        XCTAssertFalse(cache.hasPendingWrites)
        XCTAssertEqual(entries().count, 2, "both written once the worker was idle")
        let counting = Counting()
        assertColour(try counting.card(cache, paths[0], spec).pixel(x: 20, y: 15), 0x303030, "card 0, read back")
        XCTAssertEqual(counting.decodes, 0, "from the entry written")
    }

    /// A stand-in cache that makes every card green and records what the store told it.
    final class GreenCache: CardCaching, @unchecked Sendable {
        let lock = ConditionLock()
        var asked: [String] = [], owners = 0, prunes = 0
        func card(path: String, spec: CardSpec, make: () throws(ImageError) -> Card) throws(ImageError) -> Card {
            lock.withLock { asked.append(path) }
            guard let card = Card(width: spec.width, height: spec.height, background: RGB(0x00C000)) else { return try make() }
            return card
        }
        func use(_ paths: [String], by owner: ObjectIdentifier) { lock.withLock { owners += 1 } }
        func release(_ owner: ObjectIdentifier) { lock.withLock { owners -= 1 } }
        func prune() { lock.withLock { prunes += 1 } }
        func setLimit(megabytes: Int) {}
        func writeNext() -> Bool { false }
        var hasPendingWrites: Bool { false }
    }

    func testTheDecodeWorkerGetsItsCardsThroughTheCache() throws {
        let fake = GreenCache()
        var store: ImageStore? = ImageStore(paths: [photo], spec: spec, cache: fake)
        store?.waitUntilLoaded(indices: [0])
        store?.waitUntilIdle()
        XCTAssertEqual(fake.lock.withLock { fake.asked }, [photo])
        XCTAssertEqual(fake.lock.withLock { fake.prunes }, 1, "pruned once, when the store is first idle")
        XCTAssertEqual(fake.lock.withLock { fake.owners }, 1)
        store = nil
        XCTAssertEqual(fake.lock.withLock { fake.owners }, 0, "a retired store's playlist is released")
    }
}
