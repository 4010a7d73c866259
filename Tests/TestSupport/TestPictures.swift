import Foundation
import XCTest

/// Pictures, files and pixel checks the tests share; the pictures themselves (they need the
/// pixels layer) are in PixelsTestSupport, which extends this.
package enum TestPictures {
    /// A fresh directory under /tmp, removed by the caller's `addTeardownBlock`.
    package static func temporaryDirectory(_ test: XCTestCase) throws -> String {
        let path = NSTemporaryDirectory() + "carouseld-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }
}
