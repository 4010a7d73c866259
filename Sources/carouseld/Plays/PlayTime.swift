import CarouselConfig
import Glibc

/// The times `carouseld plays --since/--until` accept, a reasonable part of what journalctl
/// accepts, and the times its report writes. Local times go through the C library (the zone of
/// /etc/localtime or $TZ, DST included).
enum PlayTime {
    /// What the options accept, for the error that refuses one.
    static let accepted = "YYYY-MM-DD [HH:MM[:SS]] (local time), an RFC 3339 time (2026-11-25T14:00:00Z), "
        + "@SECONDS since 1970, -1h / -30min / -2d / +1w, now, today, yesterday or tomorrow"

    /// Seconds since 1970 that `text` names, with `now` for the relative forms; nil if it is none.
    static func seconds(_ text: String, now: Double) -> Double? {
        let word = text.trimmingWhitespace().lowercased()
        switch word {
        case "now": return now
        case "today": return midnight(of: now, plusDays: 0)
        case "yesterday": return midnight(of: now, plusDays: -1)
        case "tomorrow": return midnight(of: now, plusDays: 1)
        default: break
        }
        if word.hasPrefix("@") { return Double(word.dropFirst()).flatMap { $0.isFinite ? $0 : nil } }
        if let offset = relative(word) { return now + offset }
        return localDateTime(word) ?? RFC3339.seconds(text)
    }

    /// "-1h", "+30min", "-2 d": seconds, signed; the sign is required (a bare number is no time).
    static func relative(_ text: String) -> Double? {
        guard let sign = text.first, sign == "-" || sign == "+" else { return nil }
        let body = text.dropFirst().filter { $0 != " " }
        let digits = body.prefix { $0.isNumber || $0 == "." }
        guard let amount = Double(digits), let unit = units[String(body.dropFirst(digits.count))] else { return nil }
        return (sign == "-" ? -1 : 1) * amount * unit
    }

    private static let units: [String: Double] = [
        "s": 1, "sec": 1, "second": 1, "seconds": 1, "m": 60, "min": 60, "minute": 60, "minutes": 60,
        "h": 3600, "hour": 3600, "hours": 3600, "d": 86_400, "day": 86_400, "days": 86_400,
        "w": 604_800, "week": 604_800, "weeks": 604_800,
    ]

    /// "2026-11-25", "2026-11-25 14:00", "2026-11-25T14:00:05" in local time; nil for anything
    /// else, a date that does not exist (2026-02-30) included.
    static func localDateTime(_ text: String) -> Double? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "t" || $0 == "T" })
        guard (1...2).contains(parts.count) else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let clock = parts.count == 2 ? parts[1].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) } : [0, 0]
        guard date.count == 3, parts[0].count == 10, (2...3).contains(clock.count),
              let year = date[0], let month = date[1], let day = date[2],
              let hour = clock[0], let minute = clock[1], let second = clock.count == 3 ? clock[2] : 0,
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900); fields.tm_mon = Int32(month - 1); fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour); fields.tm_min = Int32(minute); fields.tm_sec = Int32(second)
        fields.tm_isdst = -1
        let seconds = mktime(&fields)
        // mktime moves 2026-02-30 to March: such a date is not one.
        guard seconds != -1, fields.tm_mon == Int32(month - 1), fields.tm_mday == Int32(day) else { return nil }
        return Double(seconds)
    }

    /// Local midnight of the day `seconds` falls on, `plusDays` days on (a DST day is 23 or 25 h).
    private static func midnight(of seconds: Double, plusDays: Int32) -> Double {
        var time = time_t(seconds.rounded(.down))
        var fields = tm()
        localtime_r(&time, &fields)
        fields.tm_hour = 0; fields.tm_min = 0; fields.tm_sec = 0
        fields.tm_mday += plusDays; fields.tm_isdst = -1
        return Double(mktime(&fields))
    }

    /// "2026-11-25 14:00:05.123" in local time, for people.
    static func local(_ microseconds: Int64) -> String {
        let (fields, millis) = localFields(microseconds)
        return format(fields, "%Y-%m-%d %H:%M:%S") + "." + pad(millis, 3)
    }

    /// "2026-11-25T14:00:05.123+01:00": local time with its offset, for programs.
    static func iso(_ microseconds: Int64) -> String {
        let (fields, millis) = localFields(microseconds)
        let offset = Int(fields.tm_gmtoff) / 60
        return format(fields, "%Y-%m-%dT%H:%M:%S") + "." + pad(millis, 3)
            + (offset < 0 ? "-" : "+") + pad(abs(offset) / 60, 2) + ":" + pad(abs(offset) % 60, 2)
    }

    private static func localFields(_ microseconds: Int64) -> (tm, Int) {
        var seconds = time_t(microseconds.floorDivided(by: 1_000_000))
        var fields = tm()
        localtime_r(&seconds, &fields)
        return (fields, Int(microseconds - Int64(seconds) * 1_000_000) / 1000)
    }

    private static func format(_ fields: tm, _ pattern: String) -> String {
        var fields = fields
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, pattern, &fields)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension Int64 {
    /// Rounded towards minus infinity (a time before 1970 still has its milliseconds positive).
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
