import CarouselCore
import Glibc

/// `state.json` beside the control socket, rewritten on every settle and state change, so a
/// monitoring agent reads what is on screen without talking to the daemon. Written to a
/// temporary file and renamed over the old one: a reader sees the old or the new, never half.
/// It lives on /run (tmpfs): the write does not wait for a disk.
struct StateFile {
    let path: String

    func write(_ status: DaemonStatus) {
        AtomicFile.write(ControlReply.jsonLine(status), to: path)
    }

    func remove() { unlink(path) }
}

/// A file replaced whole: written to `PATH.tmp` and renamed over the old one, so a reader sees
/// the old or the new, never half. Mode 0640 whatever the unit's UMask=0077 (group readers).
enum AtomicFile {
    @discardableResult
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
        guard fd >= 0 else {
            Log.warning("writing \(temporary): \(SystemError(call: "open", errno: errno))")
            return false
        }
        _ = fchmod(fd, 0o640)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            Log.warning("writing \(path): \(SystemError(call: written == bytes.count ? "rename" : "write", errno: errno))")
            return false
        }
        return true
    }
}
