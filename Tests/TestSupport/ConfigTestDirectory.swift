import Foundation
import Glibc

/// A throwaway config directory under /tmp for config, playlist and watcher tests.
package final class ConfigTestDirectory {
    package let path: String

    package init() throws {
        var template = Array("/tmp/carouseld-test-XXXXXX".utf8CString)
        guard let p = mkdtemp(&template) else { throw POSIXError(.EIO) }
        path = String(cString: p)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    package func url(_ name: String) -> String { path + "/" + name }

    @discardableResult
    package func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: url(name)))
        return url(name)
    }

    package func writeBytes(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: url(name)))
    }

    package func mkdir(_ name: String) throws {
        try FileManager.default.createDirectory(atPath: url(name), withIntermediateDirectories: true)
    }

    package func symlink(_ name: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: url(name), withDestinationPath: target)
    }

    package func remove(_ name: String) throws { try FileManager.default.removeItem(atPath: url(name)) }

    /// A directory with a valid config and `images` holding the given (tiny, fake) images.
    package static func withImages(_ names: [String], config: String = "interval = 3\n") throws -> ConfigTestDirectory {
        let dir = try ConfigTestDirectory()
        try dir.write("carouseld.conf", config)
        try dir.mkdir("images")
        for name in names { try dir.writeBytes("images/" + name, pngSignature) }
        return dir
    }

    /// The 8-byte PNG signature: enough for a file to count as an image by name and header.
    package static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
