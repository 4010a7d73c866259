import CarouselCore
import CLinux
import Glibc

/// Whether the kernel's clock is synchronised (NTP): `adjtimex` with no change asked for, whose
/// status lacks STA_UNSYNC once systemd-timesyncd or chrony have set it. The hardened unit
/// (ProtectClock=yes) refuses adjtimex; then systemd-timesyncd's flag file answers.
enum ClockStatus {
    static let timesyncFlag = "/run/systemd/timesync/synchronized"

    static func isSynchronised() -> Bool {
        let state = carouseld_clock_synchronised()
        return state >= 0 ? state == 1 : access(timesyncFlag, F_OK) == 0
    }
}
