import CarouselCore
import FoundationEssentials

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
