@testable import CarouselConfig
@testable import CarouselCore
import CarouselEngine
import Foundation
import Glibc
import TestSupport
import XCTest

/// Thousands of random changes to a live config directory, with the watcher and the
/// ReloadController in-process as the daemon runs them. Nothing may crash, and once the churn
/// stops and the debounce elapses, what runs is what a fresh load of the final directory gives
/// (or, if the final directory is invalid, the last valid state a reload saw).
final class ConfigWatcherChurnTests: XCTestCase {
    private var root: ConfigTestDirectory!
    private var rng = SplitMix64(seed: 1)
    private var conf: String { root.url("conf") }

    override func setUp() { Log.sink = { _, _ in } } // thousands of expected error lines
    override func tearDown() { Log.sink = nil }

    func testChurn() throws {
        var totals = (mutations: 0, reloads: 0, applied: 0, rejected: 0, finalValid: 0)
        for seed in UInt64(1)...6 {
            rng = SplitMix64(seed: seed)
            root = try ConfigTestDirectory()
            try makeValidTree()
            let r = try churn(mutations: 600, endValid: seed % 3 != 0)
            totals.mutations += 600
            totals.reloads += r.reloads; totals.applied += r.applied; totals.rejected += r.rejected
            totals.finalValid += r.finalValid ? 1 : 0
        }
        print("churn: \(totals.mutations) mutations, \(totals.reloads) reloads (\(totals.applied) applied, "
              + "\(totals.rejected) rejected), \(totals.finalValid)/6 runs ended valid")
        // The churn really exercised both paths.
        XCTAssertGreaterThan(totals.applied, 50)
        XCTAssertGreaterThan(totals.rejected, 50)
    }

    private func churn(mutations: Int, endValid: Bool) throws
        -> (reloads: Int, applied: Int, rejected: Int, finalValid: Bool) {
        let controller = try ReloadController(directory: conf)
        let watcher = try ConfigWatcher(watching: controller.current)
        var engine = CarouselEngine(config: controller.current.config, itemCount: controller.current.playlist.count,
                                    viewport: Size(width: 800, height: 480), now: 0)
        var lastGood = controller.current
        var now = 0.0
        var counts = (reloads: 0, applied: 0, rejected: 0)

        /// One turn of the daemon's loop: the debounce deadline if it has passed, then the inotify fd.
        func pump() {
            defer { watcher.handleReadable(now: now) }
            guard watcher.fire(now: now) else { return }
            // The oracle: a fresh load of the directory at this instant.
            let fresh = try? ConfigLoader.load(directory: conf)
            let shown = controller.current.playlist.indices.contains(engine.selectedIndex)
                ? controller.current.playlist[engine.selectedIndex].path : nil
            let outcome = controller.reload(selectedIndex: engine.selectedIndex)
            if case .applied(let keep) = outcome {  // what LiveConfig's swap does
                watcher.setMediaDirectory(controller.current.mediaDirectory)
                engine.reconfigure(controller.current.config, itemCount: controller.current.playlist.count,
                                   keepIndex: keep, now: now)
            }
            counts.reloads += 1
            switch outcome {
            case .applied(let keep):
                counts.applied += 1
                XCTAssertEqual(controller.current, fresh)
                if let shown, controller.current.playlist.contains(where: { $0.path == shown }) {
                    XCTAssertEqual(controller.current.playlist[engine.selectedIndex].path, shown, "picture on screen stays")
                    XCTAssertNotNil(keep)
                }
            case .unchanged: XCTAssertEqual(controller.current, fresh)
            case .rejected:
                counts.rejected += 1
                XCTAssertNil(fresh)
            }
            if let fresh { lastGood = fresh }
            XCTAssertEqual(controller.current, lastGood)
            XCTAssertEqual(engine.itemCount, controller.current.playlist.count)
        }

        for _ in 0..<mutations {
            try mutate()
            // Mostly bursts; now and then a pause long enough for the debounce to elapse.
            now += Int.random(in: 0..<4, using: &rng) == 0 ? 0.3 : Double.random(in: 0...0.05, using: &rng)
            // The loop is sometimes busy: events pile up between reads.
            if Bool.random(using: &rng) { pump() }
            // The screen moves on now and then.
            if Int.random(in: 0..<10, using: &rng) == 0, engine.itemCount > 0 {
                engine = CarouselEngine(config: engine.config, itemCount: engine.itemCount, viewport: engine.viewport,
                                        now: now, startIndex: Int.random(in: 0..<engine.itemCount, using: &rng),
                                        itemDurations: engine.itemDurations)
            }
        }
        if endValid { try makeValidTree(interval: 77) }

        // The churn stops: the debounce elapses, one reload happens, then quiet.
        pump()
        now += watcher.maxDelay
        pump()
        XCTAssertNil(watcher.nextDeadline, "nothing left pending")
        let final = try? ConfigLoader.load(directory: conf)
        if let final {
            XCTAssertEqual(controller.current, final, "runs the final directory's config")
        } else {
            XCTAssertEqual(controller.current, lastGood, "keeps the last valid config")
        }
        if endValid { XCTAssertEqual(controller.current.config.interval, 77) }
        return (counts.reloads, counts.applied, counts.rejected, final != nil)
    }

    // MARK: - Mutations

    private let names = ["a.jpg", "b.png", "c.webp", "img2.jpg", "img10.jpg", "x.JPG"]

    private func makeValidTree(interval: Int = 3) throws {
        try? FileManager.default.createDirectory(atPath: root.url("conf/images"), withIntermediateDirectories: true)
        try atomicWrite("conf/carouseld.conf", "interval = \(interval)\n")
        try root.writeBytes("conf/images/a.jpg", ConfigTestDirectory.pngSignature)
        try? root.remove("conf/playlist.m3u")
    }

    private func randomName() -> String { names.randomElement(using: &rng)! }

    private func validConfig() -> String {
        "interval = \(Int.random(in: 0...60, using: &rng))\nspacing = \(Int.random(in: 0...100, using: &rng))\n"
            + (Bool.random(using: &rng) ? "fit = \"contain\"\n" : "")
    }

    private func invalidConfig() -> String {
        ["interval = \"soon\"\n", "spacing = -1\n", "fit = [\n", "[#\n", "card_width = \"200%\"\n",
         "interval = 3\ninterval = 4\n", "\u{1}\n"].randomElement(using: &rng)!
    }

    /// Writes a hidden temporary file, then renames it over the name, as editors and rsync do.
    private func atomicWrite(_ name: String, _ text: String) throws {
        let dir = (name as NSString).deletingLastPathComponent, base = (name as NSString).lastPathComponent
        let temp = "\(dir)/.\(base).\(UInt32.random(in: 0...UInt32.max, using: &rng))"
        try root.write(temp, text)
        guard rename(root.url(temp), root.url(name)) == 0 else { throw POSIXError(.EIO) }
    }

    private func mutate() throws {
        let conf = FileManager.default.fileExists(atPath: root.url("conf"))
        let images = FileManager.default.fileExists(atPath: root.url("conf/images"))
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<15 where conf: try atomicWrite("conf/carouseld.conf", validConfig())
        case 15..<25 where conf: try atomicWrite("conf/carouseld.conf", invalidConfig())
        case 25..<32 where conf: try root.write("conf/carouseld.conf", Bool.random(using: &rng) ? validConfig() : invalidConfig())
        case 32..<36 where conf: try? root.remove("conf/carouseld.conf")
        case 36..<46 where conf:
            let entries = (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                Bool.random(using: &rng) ? randomName() : ["../carouseld.conf", "/etc/passwd", "gone.jpg",
                                                           "#EXTINF:4,t"].randomElement(using: &rng)!
            }
            try atomicWrite("conf/playlist.m3u", entries.joined(separator: "\n") + "\n")
        case 46..<52 where conf: try? root.remove("conf/playlist.m3u")
        case 52..<66 where images: try atomicWrite("conf/images/" + randomName(), "\u{89}PNG")
        case 66..<76 where images: try? root.remove("conf/images/" + randomName())
        case 76..<80 where images:
            try root.write("conf/images/.\(randomName()).Xa81Qz", "partial") // rsync mid-transfer
        case 80..<84 where images: try? FileManager.default.removeItem(atPath: root.url("conf/images"))
        case 84..<100 where conf && !images:
            try root.mkdir("conf/images")
            try root.writeBytes("conf/images/" + randomName(), ConfigTestDirectory.pngSignature)
        case 88..<91 where conf: try FileManager.default.removeItem(atPath: root.url("conf"))
        case 91..<100 where !conf:
            // A whole new directory swapped in by rename, or built in place.
            if Bool.random(using: &rng) {
                try root.mkdir("staging/images")
                try root.write("staging/carouseld.conf", validConfig())
                try root.writeBytes("staging/images/" + randomName(), ConfigTestDirectory.pngSignature)
                guard rename(root.url("staging"), root.url("conf")) == 0 else { throw POSIXError(.EIO) }
            } else {
                try root.mkdir("conf")
                try root.write("conf/carouseld.conf", validConfig())
            }
        default:
            if !conf { try root.mkdir("conf") }
        }
    }
}
