import Glibc
@testable import carouseld
import FuzzSupport
@testable import CarouselConfig

/// playlist.m3u bytes, read as the loader reads them (UTF-8 text without NULs), against a small
/// media directory with a file, a subdirectory, a symlink leading out and one staying inside.
/// Invariants: every accepted item is a regular file inside the media directory, and every
/// duration is finite and in range.
enum Fixture {
    /// Made once and reused by every run (creating what exists already is harmless).
    static let media: MediaDirectory = {
        let base = "/tmp/carouseld-fuzz-playlist"
        let dir = base + "/images"
        for d in [base, dir, dir + "/sub", base + "/outside"] { mkdir(d, 0o755) }
        for f in [dir + "/a.jpg", dir + "/b b.png", dir + "/sub/c.webp", base + "/outside/x.jpg", base + "/secret.jpg"] {
            let fd = open(f, O_CREAT | O_WRONLY, 0o644)
            if fd >= 0 { close(fd) }
        }
        symlink("../outside", dir + "/out")
        symlink("../secret.jpg", dir + "/s.jpg")
        symlink("a.jpg", dir + "/in.jpg")
        guard let media = MediaDirectory(path: dir) else { fuzzFailure("cannot make the media directory \(dir)") }
        return media
    }()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let text = String(validating: bytes, as: UTF8.self), !bytes.contains(0) else { return 0 }
    let result = PlaylistParser.parse(text: text, file: "playlist.m3u", media: Fixture.media)
    for item in result.items {
        guard let real = MediaDirectory.realPath(item.path), real.hasPrefix(Fixture.media.realPath + "/") else {
            fuzzFailure("item \(item.path) is outside \(Fixture.media.realPath)")
        }
        guard MediaDirectory.isRegularFile(real) else { fuzzFailure("item \(item.path) is not a regular file") }
        if let d = item.duration, !(d.isFinite && d > 0 && d <= PlaylistParser.maxDuration) {
            fuzzFailure("item \(item.path) has duration \(d)")
        }
    }
    return 0
}

runLibFuzzer(fuzz)
