import CarouselCore
import Glibc
import FoundationEssentials

/// Wall-clock seconds as the local calendar reads them (the zone of /etc/localtime, or $TZ),
/// DST included, through the C library. The schedules work in these terms.
package struct LocalTime: Equatable, Sendable {
    /// 0 = Sunday … 6 = Saturday, as `tm_wday`.
    package var weekday: Int
    /// Minutes since local midnight.
    package var minute: Int

    package init(_ seconds: Double) {
        var time = time_t(seconds.rounded(.down))
        var parts = tm()
        localtime_r(&time, &parts)
        weekday = Int(parts.tm_wday)
        minute = Int(parts.tm_hour) * 60 + Int(parts.tm_min)
    }

    package init(weekday: Int, minute: Int) { self.weekday = weekday; self.minute = minute }

    /// The first whole local minute after `seconds` at which `value` (the schedule's on/off, the
    /// daypart in force) changes, within 8 days; nil when it never does. Minute by minute
    /// through real times, so a DST change (a missing or repeated hour) is what the local clock
    /// shows, not arithmetic on it.
    package static func nextChange<T: Equatable>(after seconds: Double, _ value: (LocalTime) -> T) -> Double? {
        let now = value(LocalTime(seconds))
        var t = (seconds / 60).rounded(.down) * 60 + 60
        let end = seconds + 8 * 86_400
        while t <= end {
            if value(LocalTime(t)) != now { return t }
            t += 60
        }
        return nil
    }
}

/// Days of the week as the config writes them ("mon" … "sun"), as `tm_wday` numbers.
package enum Weekdays {
    package static let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    package static func parse(_ name: String) -> Int? { names.firstIndex(of: name.lowercased()) }

    /// "07:30" → 450; nil unless HH:MM with 00–23 and 00–59 (24:00 means the end of the day).
    package static func minute(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              let h = Int(parts[0]), let m = Int(parts[1]), (0...24).contains(h), (0...59).contains(m),
              h < 24 || m == 0 else { return nil }
        return h * 60 + m
    }
}

/// A weekly window in local time: `days`, from `start` to `end` minutes. An end at or before
/// the start crosses midnight into the next day (22:00–06:00 on fri runs into saturday).
package struct WeeklyWindow: Equatable, Sendable {
    package var days: Set<Int>
    package var start: Int
    package var end: Int

    package func contains(_ time: LocalTime) -> Bool {
        if start < end { return days.contains(time.weekday) && time.minute >= start && time.minute < end }
        // Across midnight: the evening part on a listed day, the morning part on the day after one.
        return (days.contains(time.weekday) && time.minute >= start)
            || (days.contains((time.weekday + 6) % 7) && time.minute < end)
    }
}

/// RFC 3339 times (`2000-01-01T00:00:00Z`, `2026-11-23T07:30:00+01:00`) as seconds since 1970,
/// read with Foundation's ISO 8601 parser.
package enum RFC3339 {
    package static func seconds(_ text: String) -> Double? {
        // TOML writes its own date-times with a space or 'T'; both are RFC 3339.
        let normalised = String(text.trimmingWhitespace().map { $0 == " " ? "T" : $0 })
        for style in [Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle()] {
            if let date = try? style.parse(normalised) { return date.timeIntervalSince1970 }
        }
        return nil
    }

    /// "2026-11-23T12:00:00Z".
    package static func string(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle())
    }
}
