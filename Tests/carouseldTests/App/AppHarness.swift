@testable import CarouselCore
import CarouselEngine
import Glibc
import XCTest
@testable import carouseld
import TestSupport
import PixelsTestSupport

/// The whole daemon on the host: the real `DaemonRunner` and everything it assembles (config
/// watcher and reload, image stores and their decode threads, operations, control socket,
/// status publisher, watchdog) on a `FakeBackend`, with a loop clock the test moves.
/// Decodes and loads run on their own threads as in the daemon: the harness waits for them on
/// the loop's descriptors, never by sleeping.
final class AppHarness {
    let dir: ConfigTestDirectory
    let time = ManualTime(1000)
    let loop: EventLoop
    let runner: DaemonRunner
    private(set) var backend: FakeBackend!
    /// The proof-of-play records the daemon sent (kept here, never sent to the host's journal).
    private(set) var plays: [PlayRecord] = []

    /// `pictures`: name → colour of a solid 160x100 PNG in images/. `cacheDirectory`: the card
    /// cache (and kept frames), as systemd's CacheDirectory=; none by default.
    convenience init(config: String, pictures: [(String, UInt32)], connectors: [String] = ["Fake-1"],
                     cacheDirectory: String? = nil) throws {
        let dir = try ConfigTestDirectory()
        try dir.write("carouseld.conf", config)
        try dir.mkdir("images")
        for (name, colour) in pictures { try Self.writePicture(colour, to: dir.url("images/" + name)) }
        try self.init(directory: dir, connectors: connectors, cacheDirectory: cacheDirectory)
    }

    /// The daemon started again on `directory` (a restart: a new process on the same files).
    init(directory: ConfigTestDirectory, connectors: [String] = ["Fake-1"], cacheDirectory: String? = nil) throws {
        dir = directory
        let loop = try EventLoop(time: time)
        self.loop = loop
        var made: FakeBackend?
        let options = DaemonOptions(configDirectory: dir.path, cacheDirectory: cacheDirectory, controlPath: dir.url("control"))
        runner = try DaemonRunner(options, loop: loop) {
            shell, config, _ in
            let backend = FakeBackend(shell, config: config, connectors: connectors, loop: loop)
            made = backend
            return backend
        }
        backend = made
        runner.carousels.plays.send = { [weak self] in self?.plays.append($0) }
        runner.carousels.plays.wallClock = { [time] in 1_700_000_000 + time.now() }
    }

    deinit { runner.stop(reason: "test over") }

    static func picturePNG(_ colour: UInt32) throws -> [UInt8] {
        let path = NSTemporaryDirectory() + "carouseld-picture-\(getpid())-\(colour).png"
        defer { unlink(path) }
        try TestPictures.writePNG(TestPictures.solid(colour, width: 160, height: 100), path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func writePicture(_ colour: UInt32, to path: String) throws {
        try Data(picturePNG(colour)).write(to: URL(fileURLWithPath: path))
    }

    var screen: FakeOutput { backend.screens[0] }
    var engine: CarouselEngine { runner.carousels.lead.engine }

    /// The colour at the middle of what screen `index` shows now: the selected card's.
    func centreColour(of index: Int = 0) -> UInt32 {
        backend.screens[index].pixel(x: 320, y: 200) & 0xFF_FFFF
    }

    func start() { runner.start() }

    /// One turn of the loop at the clock's time: flips queued on every screen complete.
    func turn(waitMilliseconds: Int32 = 0) throws {
        for screen in backend.screens where screen.pending { screen.reportFlip(at: time.now()) }
        try loop.runOnce(timeoutMilliseconds: waitMilliseconds)
    }

    /// Moves the clock by `seconds`, a frame (1/60 s) at a time, turning the loop each frame.
    func advance(_ seconds: Double) throws {
        let end = time.now() + seconds
        while time.now() < end - 1e-9 {
            time.advance(by: min(1.0 / 60, end - time.now()))
            try turn()
        }
    }

    /// Turns the loop (the clock standing still) until `condition` holds: what runs on threads
    /// (decodes, config loads) reports through descriptors the loop waits on. Fails after 10 s.
    func waitUntil(_ what: String, file: StaticString = #filePath, line: UInt = #line,
                   _ condition: () -> Bool) throws {
        let giveUp = MonotonicClock.now() + 10
        while !condition() {
            guard MonotonicClock.now() < giveUp else { return XCTFail("never: \(what)", file: file, line: line) }
            try turn(waitMilliseconds: 20)
        }
    }

    /// Turns the loop until `screens` show `colour` at their centre in a frame that became
    /// visible (its flip reported), not merely drawn: a picture decoded before the first frame
    /// is drawn straight away, and the start (READY, input) waits for that flip.
    func waitUntilOnScreen(_ what: String, colour: UInt32, screens: [Int] = [0],
                           file: StaticString = #filePath, line: UInt = #line) throws {
        try waitUntil(what, file: file, line: line) {
            screens.allSatisfy { centreColour(of: $0) == colour && !backend.screens[$0].pending }
        }
    }

    /// A control request, answered as the socket's are, then the rest of that loop turn (the
    /// events the request caused are handed out).
    func control(_ request: ControlRequest) -> ControlReply {
        let reply = runner.answer(request, uid: 0, file: nil)
        _ = try? loop.runOnce(timeoutMilliseconds: 0)
        return reply
    }
}
