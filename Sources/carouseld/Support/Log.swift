import Foundation

/// journald-friendly logging: one line per event on stderr, with the syslog priority
/// prefix (`<3>` error, `<4>` warning, `<6>` info, `<7>` debug) that journald reads.
enum Log {
    enum Level: Int, Comparable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
        static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// Lines above this level are dropped (CAROUSELD_DEBUG=1 shows debug lines).
    nonisolated(unsafe) static var threshold: Level =
        ProcessInfo.processInfo.environment["CAROUSELD_DEBUG"] == nil ? .info : .debug
    /// Tests capture lines here instead of stderr.
    nonisolated(unsafe) static var sink: ((Level, String) -> Void)? = nil
    private static let lock = NSLock()

    static func error(_ message: @autoclosure () -> String) { write(.error, message()) }
    static func warning(_ message: @autoclosure () -> String) { write(.warning, message()) }
    static func notice(_ message: @autoclosure () -> String) { write(.notice, message()) }
    static func info(_ message: @autoclosure () -> String) { write(.info, message()) }
    static func debug(_ message: @autoclosure () -> String) { if threshold >= .debug { write(.debug, message()) } }

    private static func write(_ level: Level, _ message: String) {
        guard level <= threshold else { return }
        lock.lock(); defer { lock.unlock() }
        if let sink { sink(level, message); return }
        // One line per event: embedded newlines would split an event in the journal.
        let line = "<\(level.rawValue)>" + message.replacingOccurrences(of: "\n", with: " ") + "\n"
        FileHandle.standardError.write(line.data(using: .utf8)!)
    }
}
