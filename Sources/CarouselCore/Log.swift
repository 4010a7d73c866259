import Glibc

/// journald-friendly logging: one line per event on stderr, with the syslog priority
/// prefix (`<3>` error, `<4>` warning, `<6>` info, `<7>` debug) that journald reads.
package enum Log {
    package enum Level: Int, Comparable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
        package static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// Lines above this level are dropped (CAROUSELD_DEBUG=1 shows debug lines).
    /// A constant: every frame asks it (a variable global costs an exclusivity check a read).
    package static let threshold: Level = getenv("CAROUSELD_DEBUG") == nil ? .info : .debug
    /// Tests capture lines here instead of stderr. Set and read under `lock`: a test swaps it
    /// while a decode thread may be logging a skipped file.
    package static var sink: ((Level, String) -> Void)? {
        get { var current: ((Level, String) -> Void)? = nil; lock.withLock { current = sinkStorage }; return current }
        set { lock.withLock { sinkStorage = newValue } }
    }
    nonisolated(unsafe) private static var sinkStorage: ((Level, String) -> Void)? = nil
    /// Lines from the decode thread and the loop never interleave. A pthread mutex, which
    /// ThreadSanitizer sees (Synchronization's Mutex is built without it, so the sink swapped by a
    /// test while a decode thread logged was reported as a race).
    private static let lock = ConditionLock()

    package static func error(_ message: @autoclosure () -> String) { write(.error, message()) }
    package static func warning(_ message: @autoclosure () -> String) { write(.warning, message()) }
    package static func notice(_ message: @autoclosure () -> String) { write(.notice, message()) }
    package static func info(_ message: @autoclosure () -> String) { write(.info, message()) }
    package static func debug(_ message: @autoclosure () -> String) { if threshold >= .debug { write(.debug, message()) } }

    private static func write(_ level: Level, _ message: String) {
        guard level <= threshold else { return }
        lock.withLock {
            if let sink = sinkStorage { sink(level, message); return }
            // One line per event: embedded newlines would split an event in the journal.
            let line = "<\(level.rawValue)>" + escapingControls(message) + "\n"
            StandardError.write(line)
        }
    }
}

/// `text` with line breaks and other control characters written as escapes (`\n`, `\r`,
/// `\x1b`), so a file name holding them can never split or forge a log line.
package func escapingControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case _ where isControl(scalar):
            let hex = String(scalar.value, radix: 16)
            out += "\\x" + (hex.count < 2 ? "0" : "") + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

private func isControl(_ s: Unicode.Scalar) -> Bool {
    (s.value < 0x20 && s != "\t") || s.value == 0x7F || (0x80..<0xA0).contains(s.value) || s == "\u{2028}" || s == "\u{2029}"
}

/// A file name from the file system (bytes, not necessarily UTF-8) as text for messages: valid
/// UTF-8 as it is, each byte of an invalid sequence as `\xff`.
package func escapedFileName(_ bytes: [UInt8]) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    var out = ""
    var rest = bytes[...]
    while !rest.isEmpty {
        // The longest valid prefix as text, then one escaped byte.
        var valid = rest.endIndex
        while valid > rest.startIndex, String(validating: rest[..<valid], as: UTF8.self) == nil { valid -= 1 }
        out += String(decoding: rest[..<valid], as: UTF8.self)
        if valid < rest.endIndex {
            let hex = String(rest[valid], radix: 16)
            out += "\\x" + (hex.count < 2 ? "0" : "") + hex
            rest = rest[(valid + 1)...]
        } else {
            rest = rest[rest.endIndex...]
        }
    }
    return out
}

/// Whole writes to stderr (fd 2), EINTR and short writes retried.
package enum StandardError {
    package static func write(_ text: String) {
        var text = text
        text.withUTF8 { try? writeAll(2, UnsafeRawBufferPointer($0)) }
    }
}
