import Glibc

/// Time since this process was exec'd, for the "first frame after N ms" log line. The start
/// comes from /proc/self/stat (clock ticks since boot, so 10 ms resolution at USER_HZ 100)
/// and is compared on CLOCK_BOOTTIME, the clock that field counts in.
package enum ExecClock {
    /// Seconds from exec to the monotonic instant `time`; nil if /proc is unreadable.
    package static func sinceExec(atMonotonic time: Double) -> Double? {
        guard let start = processStart() else { return nil }
        var boot = timespec(), mono = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        clock_gettime(CLOCK_MONOTONIC, &mono)
        let bootNow = Double(boot.tv_sec) + Double(boot.tv_nsec) / 1e9
        let monoNow = Double(mono.tv_sec) + Double(mono.tv_nsec) / 1e9
        return bootNow - (monoNow - time) - start
    }

    /// Field 22 of /proc/self/stat, in seconds since boot.
    private static func processStart() -> Double? {
        guard let file = fopen("/proc/self/stat", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The command name (field 2) may contain spaces: count fields after its closing ')'.
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
