import CSystemd
import Glibc

/// Tells systemd what the daemon is doing, through libsystemd's `sd_notify` (Type=notify).
/// Without `NOTIFY_SOCKET` (not started by systemd) every call is a no-op, so the daemon and
/// tests run the same code.
///
/// One instance per daemon (the main PID sends everything: the unit uses NotifyAccess=main).
package final class Notifier {
    /// READY=1 has been sent: the first frame is on screen.
    package private(set) var isReady = false

    package init() {}

    /// The first frame is on screen.
    package func ready() {
        isReady = true
        send("READY=1")
    }

    /// A reload starts. systemd 253+ requires MONOTONIC_USEC with RELOADING=1 to match the
    /// reload to its request; older versions ignore it. Before the first READY=1 a reload is
    /// part of starting up and is not announced (READY=1 after it would come too early).
    package func reloading() {
        guard isReady else { return }
        send("RELOADING=1\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())")
    }

    /// A reload finished, whatever its outcome: the service is running again.
    package func reloaded() {
        guard isReady else { return }
        send("READY=1")
    }

    package func stopping() { send("STOPPING=1") }

    package func watchdog() { send("WATCHDOG=1") }

    /// The one-line status `systemctl status` shows. Line breaks would start new assignments
    /// in the notify message, so they are folded into spaces.
    package func status(_ text: String) {
        let line = text.map { $0.isNewline ? " " : String($0) }.joined()
        send("STATUS=" + line)
    }

    /// Half of `WATCHDOG_USEC` in seconds when systemd's watchdog is on for this process,
    /// else nil. Half, like weston, so one late wakeup never trips the watchdog.
    package static func watchdogInterval() -> Double? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return Double(usec) / 2 / 1_000_000
    }

    /// True when started by systemd with a notify socket.
    package static var isSupervised: Bool { getenv("NOTIFY_SOCKET") != nil }

    private func send(_ state: String) {
        let result = sd_notify(0, state)
        if result < 0 {
            Log.debug("sd_notify(\(state.split(separator: "\n").first ?? "")): \(describe(errno: -result))")
        }
    }

    package static func monotonicMicroseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
    }
}
