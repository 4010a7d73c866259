import CarouselCore
import FoundationEssentials

/// What the daemon shows and how it runs: the control socket's `status`, and
/// `/run/carouseld/state.json` for monitoring agents. Its three parts are written side by side
/// in one flat JSON object, the schema the man page documents.
struct DaemonStatus: Codable, Equatable, Sendable {
    var showing: Showing
    var display: Display
    var process: Process

    /// What is on screen.
    struct Showing: Codable, Equatable, Sendable {
        /// The first carousel's picture, 1-based as people count, of `count`.
        var index: Int
        var count: Int
        var name: String?
        /// The playlist file shown, or the media directory when there is none.
        var playlist: String
        /// Every carousel (several with independent screens).
        var outputs: [Carousel]
        /// Pictures whose card could not be made, "a4.png: truncated PNG data"; tried again when
        /// the file changes. Absent when every card could be made.
        var failed: [String]? = nil
    }

    /// Whether the screen is lit and paging.
    struct Display: Codable, Equatable, Sendable {
        /// "on" or "off", and why ("scheduled", "ctl", "touch", "always").
        var screen: String
        var screenReason: String
        /// "on" or "off": what the `[[screen]]` schedule alone says now (on without a schedule);
        /// absent in older replies.
        var screenScheduled: String? = nil
        /// The TV's power as it reports it over HDMI-CEC: "on", "standby" or "unknown" (no
        /// answer). Absent when no CEC adapter is used (`cec = "off"`, or none found).
        var tv: String? = nil
        /// "synced", "touched (resync in 12 s)", "clock not synchronised"; nil without sync.
        var sync: String?
        var paused: Bool
        /// "synchronised", or "not synchronised" while the schedules wait for it (`ClockTrust`).
        var clock: String = Self.synchronised
        /// The status the readers (ctl, metrics) compare against, written once.
        static let synchronised = "synchronised", notSynchronised = "not synchronised"
        var clockSynchronised: Bool { clock == Self.synchronised }
    }

    /// How the daemon runs.
    struct Process: Codable, Equatable, Sendable {
        /// 1 at start, one more for each reload that changed something.
        var generation: Int
        /// The first problem of the config on disk while it is invalid (the old one runs).
        var configError: String?
        var uptime: Double
        var frames: Int
    }

    struct Carousel: Codable, Equatable, Sendable {
        var output: String
        var index: Int
        var count: Int
        var name: String?
        /// Seconds of rest before it pages by itself (0: never); absent in older replies.
        var interval: Double? = nil
    }

    init(showing: Showing, display: Display, process: Process) {
        self.showing = showing; self.display = display; self.process = process
    }

    // One object: each part writes its keys into the same container.
    init(from decoder: any Decoder) throws {
        showing = try Showing(from: decoder); display = try Display(from: decoder); process = try Process(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try showing.encode(to: encoder); try display.encode(to: encoder); try process.encode(to: encoder)
    }
}

/// One answer of the control socket, one JSON line: `{"ok":true,…}` or `{"error":"…"}`.
struct ControlReply: Codable, Equatable, Sendable {
    var ok: Bool
    var error: String?
    /// After next, prev, goto: "showing 4/12 beach.jpg".
    var showing: String?
    var status: DaemonStatus?

    static func failure(_ message: String) -> ControlReply { ControlReply(ok: false, error: message) }
    static func done(_ showing: String? = nil) -> ControlReply { ControlReply(ok: true, showing: showing) }

    /// The reply as one line of JSON, newline included.
    func line() -> [UInt8] { Self.jsonLine(self) }

    /// Any value as one line of JSON (snake_case keys, sorted), newline included.
    static func jsonLine<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data(#"{"ok":false,"error":"reply could not be encoded"}"#.utf8)
        return Array(data) + [UInt8(ascii: "\n")]
    }

    static func decode(_ line: [UInt8]) -> ControlReply? {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try? decoder.decode(ControlReply.self, from: Data(line))
    }
}
