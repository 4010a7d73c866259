/// What the metrics say, gathered at one moment.
struct MetricsSnapshot {
    var status: DaemonStatus
    /// Pictures whose card could not be made, counted since start (each failure once).
    var decodeFailures: Int
    /// Realtime seconds of the last page change of any screen; nil before the first.
    var lastPageChange: Double?
    var clockSynchronised: Bool
    /// The event loop's longest gap while animating since the last SIGUSR1 figures.
    var longestLoopGap: Double
    var residentBytes: Int?
    /// The power supply, file systems and card (issue 44): series only for the files there are.
    var health = BoxHealth()
    /// True while the card cache lives under /run because its directory could not be written;
    /// nil without a card cache.
    var cacheFallback: Bool? = nil
}

/// The Prometheus text format of node-exporter's textfile collector (`# HELP`, `# TYPE`, one
/// sample a line; names `carouseld_…`, base units, counters ending in `_total`). Pure: the
/// tests and `promtool check metrics` read what this makes.
enum MetricsText {
    static func render(_ m: MetricsSnapshot) -> String {
        var writer = PrometheusWriter()
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Double)]) {
            writer.metric(name, type, help, samples)
        }
        func one(_ name: String, _ type: String, _ help: String, _ value: Double) { metric(name, type, help, [("", value)]) }
        let carousels = m.status.showing.outputs.map {
            (labels: PrometheusWriter.labels([("output", $0.output.isEmpty ? "default" : $0.output)]), carousel: $0)
        }
        one("carouseld_up", "gauge", "1 while carouseld runs (the file's age says when it stopped).", 1)
        metric("carouseld_item_index", "gauge", "1-based position of the picture on screen in its playlist.",
               carousels.map { ($0.labels, Double($0.carousel.index)) })
        metric("carouseld_items", "gauge", "Pictures in the playlist shown.", carousels.map { ($0.labels, Double($0.carousel.count)) })
        one("carouseld_screen_on", "gauge", "1 while the screens are on, 0 while the schedule or ctl has them off.",
            m.status.display.screen == "on" ? 1 : 0)
        if let scheduled = m.status.display.screenScheduled {
            one("carouseld_screen_scheduled_on", "gauge", "1 while the screen schedule says on (always, without a schedule).",
                scheduled == "on" ? 1 : 0)
        }
        let paging = carousels.compactMap { labelled in labelled.carousel.interval.map { (labels: labelled.labels, value: $0) } }
        if !paging.isEmpty {
            metric("carouseld_page_interval_seconds", "gauge", "Seconds of rest before a screen pages by itself (0: never).", paging)
        }
        if let tv = m.status.display.tv {
            one("carouseld_tv_power", "gauge", "The TV's power as it reports it over HDMI-CEC: 1 on, 0 standby, -1 unknown (no answer).",
                TVPower(rawValue: tv)?.metricValue ?? -1)
        }
        one("carouseld_frames_total", "counter", "Frames drawn since start.", Double(m.status.process.frames))
        one("carouseld_decode_failures_total", "counter", "Pictures whose card could not be made, since start.", Double(m.decodeFailures))
        one("carouseld_config_generation", "gauge", "1 at start, one more per reload that changed something.",
            Double(m.status.process.generation))
        one("carouseld_config_error", "gauge", "1 while the config on disk is invalid (the last good one is shown).",
            m.status.process.configError == nil ? 0 : 1)
        if let last = m.lastPageChange {
            one("carouseld_last_page_change_timestamp_seconds", "gauge", "When a screen last changed pictures (Unix time).", last)
        }
        one("carouseld_clock_synchronised", "gauge", "1 once the system clock is synchronised (NTP).", m.clockSynchronised ? 1 : 0)
        one("carouseld_longest_loop_gap_seconds", "gauge", "Longest event loop gap while animating, since the last SIGUSR1 figures.",
            m.longestLoopGap)
        if let rss = m.residentBytes {
            one("carouseld_rss_bytes", "gauge", "Resident memory of the daemon.", Double(rss))
        }
        if let fallback = m.cacheFallback {
            one("carouseld_cache_fallback", "gauge", "1 while the card cache is under /run because its directory cannot be written.",
                fallback ? 1 : 0)
        }
        return writer.text + HealthMetrics.render(m.health)
    }
}

/// The text format's pieces, for `MetricsText` and `HealthMetrics`: each metric introduced once
/// by its HELP and TYPE, one sample a line.
struct PrometheusWriter {
    private(set) var text = ""

    mutating func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Double)]) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        for sample in samples { text += name + sample.labels + " " + Self.number(sample.value) + "\n" }
    }

    /// `{key="value",...}`, the values escaped.
    static func labels(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { "\($0.0)=\"\(escaped($0.1))\"" }.joined(separator: ",") + "}"
    }

    /// Integers without a fraction; others as Swift prints them (Prometheus reads both).
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// A label value: backslash, double quote and newline escaped.
    private static func escaped(_ value: String) -> String {
        var result = ""
        for character in value {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }
}
