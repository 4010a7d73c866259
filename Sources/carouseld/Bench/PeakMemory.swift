import CarouselCore
import FoundationEssentials
import Glibc

/// The process's resident memory from /proc/self/status: VmHWM (the peak) and VmRSS (now).
enum PeakMemory {
    static func current() -> Int? { field("VmHWM:") }

    static func resident() -> Int? { field("VmRSS:") }

    /// Sets the peak back to what is resident now (Linux ≥ 4.0), so the next `current()` is
    /// the peak of what ran in between. False where the kernel refuses.
    @discardableResult
    static func reset() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }

    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }
}
