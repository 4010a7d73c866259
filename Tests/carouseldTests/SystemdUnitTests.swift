@testable import CarouselCore
import Foundation
import XCTest
import TestSupport

/// systemd/carouseld.service checked by systemd itself (`systemd-analyze verify` and
/// `security --offline=true`, score ≤ 2.0), and scripts/install staged into a directory.
final class SystemdUnitTests: XCTestCase {
    private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private var unitPath: String { repository.appendingPathComponent("systemd/carouseld.service").path }

    /// The carouseld binary built next to this test bundle.
    private var builtBinary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("carouseld").path
    }

    private func run(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A copy of the unit whose ExecStart names the built binary: verify checks that it exists.
    private func unitForBuiltBinary() throws -> (ConfigTestDirectory, String) {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: builtBinary), builtBinary)
        let dir = try ConfigTestDirectory()
        let text = try String(contentsOfFile: unitPath, encoding: .utf8)
            .replacingOccurrences(of: "/usr/bin/carouseld", with: builtBinary)
        return (dir, try dir.write("carouseld.service", text))
    }

    func testSystemdAnalyzeVerifyPasses() throws {
        let (dir, unit) = try unitForBuiltBinary()
        let result = try run(["systemd-analyze", "verify", unit])
        print("systemd-analyze verify carouseld.service: exit \(result.status)\(result.output.isEmpty ? "" : "\n" + result.output)")
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.output.trimmingCharacters(in: .whitespacesAndNewlines), "", "verify must print no warning")
        _ = dir
    }

    func testSecurityExposureIsAtMost2() throws {
        let (dir, unit) = try unitForBuiltBinary()
        let result = try run(["systemd-analyze", "security", "--offline=true", "--no-pager", unit])
        XCTAssertEqual(result.status, 0, result.output)
        let summary = try XCTUnwrap(result.output.split(separator: "\n").last { $0.contains("Overall exposure level") })
        let score = try XCTUnwrap(summary.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) },
                                  String(summary))
        print("systemd-analyze security --offline=true carouseld.service: exposure \(score) (must be <= 2.0)")
        XCTAssertLessThanOrEqual(score, 2.0, result.output)
        _ = dir
    }

    /// The settings the issue requires, read from the unit as written.
    func testUnitDeclaresNotifyReloadUserAndDevices() throws {
        let lines = try String(contentsOfFile: unitPath, encoding: .utf8).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("#") && $0.contains("=") }
        func values(_ key: String) -> [String] {
            lines.filter { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        XCTAssertEqual(values("Type"), ["notify"])
        XCTAssertEqual(values("NotifyAccess"), ["main"])
        XCTAssertEqual(values("ExecReload"), ["/bin/kill -HUP $MAINPID"])
        XCTAssertEqual(values("Restart"), ["on-failure"])
        XCTAssertFalse(values("WatchdogSec").isEmpty)
        XCTAssertEqual(values("User"), ["carouseld"])
        XCTAssertEqual(values("SupplementaryGroups"), ["video input"])
        XCTAssertEqual(values("DevicePolicy"), ["closed"])
        XCTAssertEqual(Set(values("DeviceAllow")), ["char-drm rw", "char-input rw", "char-fb rw", "char-cec rw"])
        XCTAssertEqual(values("ProtectSystem"), ["strict"])
        XCTAssertEqual(values("ReadOnlyPaths"), ["-/etc/carouseld"])
        // The card cache's directory ($CACHE_DIRECTORY), the last good config's ($STATE_DIRECTORY)
        // and the control socket's ($RUNTIME_DIRECTORY): the only writable ones; the socket's
        // group may enter the latter.
        XCTAssertEqual(values("CacheDirectory"), ["carouseld"])
        XCTAssertEqual(values("StateDirectory"), ["carouseld"])
        XCTAssertEqual(values("RuntimeDirectory"), ["carouseld"])
        XCTAssertEqual(values("RuntimeDirectoryMode"), ["0750"])
        XCTAssertEqual(values("CapabilityBoundingSet"), [""])
        XCTAssertEqual(values("NoNewPrivileges"), ["yes"])
        XCTAssertEqual(Set(values("Conflicts")), ["getty@tty1.service", "shutdown.target"])
        // Early boot (like plymouth): only what the daemon needs, not basic.target.
        XCTAssertEqual(values("DefaultDependencies"), ["no"])
        XCTAssertTrue(values("Before").contains("shutdown.target"))
        XCTAssertTrue(values("After").joined(separator: " ").contains("local-fs.target"))
        // Plymouth's handover (issue 46): after its start, not after its quit (the end of boot);
        // Debian's own quit waits for the daemon's first frame; the two commands as root, skipped
        // where plymouth is missing.
        XCTAssertTrue(values("After").joined(separator: " ").contains("plymouth-start.service"))
        XCTAssertFalse(values("After").joined(separator: " ").contains("plymouth-quit"))
        XCTAssertTrue(values("Before").joined(separator: " ").contains("plymouth-quit.service plymouth-quit-wait.service"))
        XCTAssertEqual(values("ExecStartPre"), ["-+/bin/plymouth deactivate"])
        XCTAssertEqual(values("ExecStartPost"), ["-+/bin/plymouth quit --retain-splash"])
        // Not after udev: the display's and input's events are queued ahead of udev's coldplug
        // (carouseld-coldplug.service, pulled in), and a node not yet given to group video is
        // opened on udev's event.
        XCTAssertFalse(values("After").joined(separator: " ").contains("systemd-udev"))
        XCTAssertEqual(values("Wants"), ["carouseld-coldplug.service", "carouseld-preload.service"])
        XCTAssertTrue(values("After").contains("carouseld-coldplug.service"))
        // The preload is pulled in but not waited for: it only warms the page cache.
        XCTAssertFalse(values("After").joined(separator: " ").contains("carouseld-preload"))
    }

    /// carouseld-preload.service reads the program ahead of the daemon, as its user, and is ordered
    /// after nothing (else it would come after the daemon's start, as it did behind tmpfiles).
    func testPreloadUnitIsEarlyUnprivilegedAndSafe() throws {
        let path = repository.appendingPathComponent("systemd/carouseld-preload.service").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        func lines(_ key: String) -> [String] {
            text.split(separator: "\n").filter { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        XCTAssertEqual(lines("After"), [])
        XCTAssertEqual(lines("DefaultDependencies"), ["no"])
        // Not DynamicUser= (its PrivateTmp= orders the unit after systemd-tmpfiles-setup).
        XCTAssertEqual(lines("User"), ["carouseld"])
        XCTAssertEqual(lines("DynamicUser"), [])
        XCTAssertEqual(lines("PrivateTmp"), [])
        // The program, then each library the dynamic loader names for it, read by one cat.
        let exec = try XCTUnwrap(lines("ExecStart").first)
        XCTAssertTrue(exec.contains("LD_TRACE_LOADED_OBJECTS=1 /usr/bin/carouseld"), exec)
        XCTAssertTrue(exec.hasSuffix("exec cat \"$$@\"'"), exec)
        XCTAssertTrue(lines("Before").allSatisfy { !$0.contains("carouseld.service") })
        let result = try run(["systemd-analyze", "security", "--offline=true", "--no-pager", path])
        let summary = try XCTUnwrap(result.output.split(separator: "\n").last { $0.contains("Overall exposure level") })
        let score = try XCTUnwrap(summary.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        print("systemd-analyze security --offline=true carouseld-preload.service: exposure \(score)")
        XCTAssertLessThanOrEqual(score, 1.0, result.output)
    }

    func testInstallStagesBinaryUnitUserAndConfig() throws {
        let stage = try ConfigTestDirectory()
        let result = try run(["scripts/install", "--binary", builtBinary, "--destdir", stage.path], in: repository)
        XCTAssertEqual(result.status, 0, result.output)
        let fm = FileManager.default
        XCTAssertTrue(fm.isExecutableFile(atPath: stage.url("usr/local/bin/carouseld")))
        XCTAssertTrue(fm.fileExists(atPath: stage.url("usr/lib/sysusers.d/carouseld.conf")))
        let unit = try String(contentsOfFile: stage.url("etc/systemd/system/carouseld.service"), encoding: .utf8)
        XCTAssertTrue(unit.contains("ExecStart=/usr/local/bin/carouseld run --config /etc/carouseld"))
        // The staged default config is one the daemon accepts.
        let staged = try carouseldCheck(stage.url("etc/carouseld"))
        XCTAssertEqual(staged.status, 0, staged.output)
        // A second install keeps the administrator's config.
        try stage.write("etc/carouseld/carouseld.conf", "interval = 42\n")
        XCTAssertEqual(try run(["scripts/install", "--binary", builtBinary, "--destdir", stage.path], in: repository).status, 0)
        XCTAssertEqual(try String(contentsOfFile: stage.url("etc/carouseld/carouseld.conf"), encoding: .utf8), "interval = 42\n")
    }

    private func carouseldCheck(_ directory: String) throws -> (status: Int32, output: String) {
        try run([builtBinary, "check", "--config", directory])
    }
}
