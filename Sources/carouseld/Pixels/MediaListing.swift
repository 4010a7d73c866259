import Foundation

/// THE place that turns a media directory into an ordered playlist of paths, until the
/// config loader (carouseld.conf + playlist.m3u, another branch) provides one; the integrator
/// swaps callers of `imagePaths(in:)` for the playlist model there.
///
/// Lists non-hidden regular files with a picture extension (decodable or not, so an
/// unsupported GIF is named in the log instead of silently ignored), sorted naturally:
/// "slide2" before "slide10". Content is still checked by magic bytes when decoding.
enum MediaListing {
    static let pictureExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "webp", "gif", "bmp", "tif", "tiff", "heic", "heif", "avif", "jxl",
    ]

    static func imagePaths(in directory: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        return names
            .filter { !$0.hasPrefix(".") && pictureExtensions.contains(ImageFile.fileExtension($0)) }
            .sorted(by: naturalOrder)
            .map { (directory as NSString).appendingPathComponent($0) }
            .filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            }
    }

    /// Digits compare as numbers, letters without regard to case.
    static func naturalOrder(_ a: String, _ b: String) -> Bool {
        let order = a.compare(b, options: [.numeric, .caseInsensitive])
        return order == .orderedSame ? a < b : order == .orderedAscending
    }
}
