@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
import Glibc
import XCTest
import TestSupport

/// ReloadController: last good config kept, new valid one applied, picture on screen kept.
final class ConfigReloadTests: XCTestCase {
    private var logged: [(Log.Level, String)] = []

    override func setUp() {
        Log.sink = { [unowned self] level, line in logged.append((level, line)) }
    }

    override func tearDown() { Log.sink = nil }

    /// A notifier past its first READY=1, as during normal running.
    private func runningNotifier() -> Notifier {
        let notifier = Notifier()
        notifier.ready()
        return notifier
    }

    func testValidReloadKeepsThePictureOnScreen() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        let socket = try NotifySocket()
        let controller = try ReloadController(directory: dir.path, notifier: runningNotifier())
        XCTAssertEqual(socket.messages(), ["READY=1"])
        try dir.write("carouseld.conf", "interval = 9\n")
        try dir.write("playlist.m3u", "d.jpg\n#EXTINF:7,C\nc.jpg\na.jpg\n")
        XCTAssertEqual(controller.reload(selectedIndex: 2), .applied(keepIndex: 1), "c.jpg was on screen")
        XCTAssertEqual(controller.current.config.interval, 9)
        XCTAssertEqual(controller.current.itemDurations, [nil, 7, nil])
        // The status line is the publisher's (AppStatusTests); the reload says only that it reloads.
        let messages = socket.messages()
        XCTAssertEqual(messages.count, 2, "\(messages)")
        XCTAssertTrue(messages[0].hasPrefix("RELOADING=1\nMONOTONIC_USEC="))
        XCTAssertEqual(Array(messages.dropFirst()), ["READY=1"])
    }

    func testPictureGoneStartsAtTheFirst() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg", "c.jpg"])
        let controller = try ReloadController(directory: dir.path)
        try dir.remove("images/b.jpg")
        XCTAssertEqual(controller.reload(selectedIndex: 1), .applied(keepIndex: nil))
        XCTAssertEqual(controller.current.playlist.map(\.name), ["a.jpg", "c.jpg"])
    }

    func testInvalidReloadKeepsTheOldConfigAndSaysSo() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg", "b.jpg"])
        let socket = try NotifySocket()
        let controller = try ReloadController(directory: dir.path, notifier: runningNotifier())
        _ = socket.messages()
        let good = controller.current
        try dir.write("carouseld.conf", "interval = 3\nfit = \"fill\"\nspacing = -4\n")
        guard case .rejected(let problems) = controller.reload(selectedIndex: 1) else {
            return XCTFail("an invalid config must be rejected")
        }
        let conf = dir.url("carouseld.conf")
        XCTAssertEqual(problems, ["\(conf):2: fit: expected \"cover\" or \"contain\", got string \"fill\"",
                                  "\(conf):3: spacing: -4 is out of range; allowed 0...4096 pixels"])
        XCTAssertEqual(controller.current, good)
        XCTAssertEqual(controller.problems, problems)
        // Each problem is its own error line in the journal.
        XCTAssertEqual(logged.filter { $0.0 == .error }.map(\.1).suffix(2), problems[...])
        let messages = socket.messages()
        XCTAssertEqual(messages.count, 2)
        XCTAssertEqual(messages.last, "READY=1")

        // Fixing the file recovers, and the status line says what is shown again.
        try dir.write("carouseld.conf", "interval = 3\n")
        XCTAssertEqual(controller.reload(selectedIndex: 1), .unchanged)
        XCTAssertEqual(controller.problems, [])
    }

    func testACommentAloneIsNoReloadYetTheDigestFollowsTheBytes() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"])
        try dir.write("carouseld.conf", "interval = 3\n")
        let controller = try ReloadController(directory: dir.path)
        let before = controller.current.configDigest
        try dir.write("carouseld.conf", "# shop window\ninterval = 3\n")
        XCTAssertEqual(controller.reload(selectedIndex: 0), .unchanged, "a comment changes no setting")
        let commented = try ConfigLoader.load(directory: dir.path).configDigest
        XCTAssertNotEqual(commented, before, "the digest is of the bytes")
        try dir.write("carouseld.conf", "interval = 3\n")
        XCTAssertEqual(try ConfigLoader.load(directory: dir.path).configDigest, before, "the same bytes, the same digest")
    }

    func testWarningsAreLoggedOnReload() throws {
        let dir = try ConfigTestDirectory.withImages(["a.jpg"])
        let controller = try ReloadController(directory: dir.path)
        try dir.write("carouseld.conf", "interval = 3\ncolour = 1\n")
        XCTAssertEqual(controller.reload(), .applied(keepIndex: 0))
        XCTAssertEqual(logged.filter { $0.0 == .warning }.map(\.1), ["\(dir.url("carouseld.conf")):2: colour: unknown key, ignored"])
    }

    func testFirstLoadThrowsWhenInvalid() throws {
        let dir = try ConfigTestDirectory.withImages([])
        XCTAssertThrowsError(try ReloadController(directory: dir.path))
    }

    func testDuplicatePathKeepsTheNearestOccurrence() {
        let items = ["a", "b", "a", "c", "a"].map { PlaylistItem(path: "/m/" + $0) }
        XCTAssertEqual(ReloadController.index(of: "/m/a", in: items, near: 3), 2)
        XCTAssertEqual(ReloadController.index(of: "/m/a", in: items, near: 0), 0)
        XCTAssertNil(ReloadController.index(of: "/m/z", in: items, near: 0))
    }
}
