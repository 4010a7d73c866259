import Glibc
import Synchronization

/// journald-friendly logging: one line per event on stderr, with the syslog priority
/// prefix (`<3>` error, `<4>` warning, `<6>` info, `<7>` debug) that journald reads.
enum Log {
    enum Level: Int, Comparable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
        static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// Lines above this level are dropped (CAROUSELD_DEBUG=1 shows debug lines).
    nonisolated(unsafe) static var threshold: Level = getenv("CAROUSELD_DEBUG") == nil ? .info : .debug
    /// Tests capture lines here instead of stderr. Set and read under `lock`: a test swaps it
    /// while a decode thread may be logging a skipped file.
    static var sink: ((Level, String) -> Void)? {
        get { var current: ((Level, String) -> Void)? = nil; lock.withLock { _ in current = sinkStorage }; return current }
        set { lock.withLock { _ in sinkStorage = newValue } }
    }
    nonisolated(unsafe) private static var sinkStorage: ((Level, String) -> Void)? = nil
    /// Lines from the decode thread and the loop never interleave.
    private static let lock = Mutex(())

    static func error(_ message: @autoclosure () -> String) { write(.error, message()) }
    static func warning(_ message: @autoclosure () -> String) { write(.warning, message()) }
    static func notice(_ message: @autoclosure () -> String) { write(.notice, message()) }
    static func info(_ message: @autoclosure () -> String) { write(.info, message()) }
    static func debug(_ message: @autoclosure () -> String) { if threshold >= .debug { write(.debug, message()) } }

    private static func write(_ level: Level, _ message: String) {
        guard level <= threshold else { return }
        lock.withLock { _ in
            if let sink = sinkStorage { sink(level, message); return }
            // One line per event: embedded newlines would split an event in the journal.
            let line = "<\(level.rawValue)>" + String(message.map { $0 == "\n" ? " " : $0 }) + "\n"
            StandardError.write(line)
        }
    }
}

/// Whole writes to stderr (fd 2), retried on EINTR and short writes.
enum StandardError {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }
}
