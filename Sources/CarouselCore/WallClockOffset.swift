import Glibc

/// How far the wall clock is ahead of the monotonic one, as it was when the loop last armed its
/// realtime timerfd. The kernel tells a timerfd armed with TFD_TIMER_CANCEL_ON_SET that the
/// clock was set, but arming it again takes the clock's new offset as the one to watch and
/// forgets a set it had not reported yet; the loop arms it again after every deadline and
/// whenever an earlier one is scheduled. So the loop compares the offsets itself at each arming.
/// Only a set moves the offset: NTP's slewing turns both clocks alike.
package struct WallClockOffset {
    /// Reads the offset now (the test's is scripted; setting the real clock needs root).
    private let read: () -> Double
    private var armedWith: Double?
    /// Two clock reads a preemption apart, under emulation, stay well within this; a set as
    /// small as this is a couple of frames, which no schedule or synced screen shows.
    static let tolerance = 0.05

    package init(read: @escaping () -> Double = WallClockOffset.now) {
        self.read = read
    }

    /// Whether the clock was set since the last arming (false before the first).
    func movedSinceArming() -> Bool {
        guard let armedWith else { return false }
        return abs(read() - armedWith) > Self.tolerance
    }

    /// The timerfd was armed (`deadline`) or disarmed (nil): later sets are the kernel's to
    /// report, up to the next arming. While disarmed no timer waits, and a set concerns nobody.
    mutating func armed(deadline: Double?) {
        armedWith = deadline == nil ? nil : read()
    }

    package static func now() -> Double {
        WallClock.now() - MonotonicClock.now()
    }
}
