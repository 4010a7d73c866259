import Glibc

/// The image check `carouseld check` uses until the decoders' header probe is on this branch:
/// the file must open and hold data. Format and size are the decoders' business.
enum ImageReadability {
    static func problem(path: String, maxPixels: Int) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return "cannot open (\(String(cString: strerror(errno))))" }
        defer { close(fd) }
        var byte: UInt8 = 0
        let n = read(fd, &byte, 1)
        if n < 0 { return "cannot read (\(String(cString: strerror(errno))))" }
        return n == 0 ? "file is empty (0 bytes)" : nil
    }
}
