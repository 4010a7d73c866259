import CarouselCore
import CSystemd
import Glibc

/// One showing of one picture on one screen: the proof-of-play record, as journald keeps it
/// and as `carouseld plays` reads it back.
struct PlayRecord: Equatable, Sendable {
    /// The picture's path.
    var item: String
    /// The connector (HDMI-A-1), or what names the screen on other backends.
    var output: String
    /// When it came to rest on screen, wall clock, microseconds since 1970.
    var shownMicroseconds: Int64
    /// How long it stayed, microseconds.
    var durationMicroseconds: Int64
    /// What took it away (`MoveCause`'s names; a reader keeps whatever the journal says).
    var cause: String
    /// The box that showed it (`_HOSTNAME`; empty in what the daemon sends: journald adds it).
    var host = ""

    /// Every proof-of-play record carries this MESSAGE_ID (`journalctl MESSAGE_ID=…`); documented
    /// in carouseld(8). Fixed forever: collectors and reports select on it.
    static let messageID = "850ba117ada64717a07729c120325148"

    init(item: String, output: String, shownMicroseconds: Int64, durationMicroseconds: Int64, cause: String,
         host: String = "") {
        self.item = item; self.output = output; self.shownMicroseconds = shownMicroseconds
        self.durationMicroseconds = durationMicroseconds; self.cause = cause; self.host = host
    }

    init(_ showing: FinishedShowing, output: String) {
        self.init(item: showing.item, output: output, shownMicroseconds: Int64((showing.since.wall * 1e6).rounded()),
                  durationMicroseconds: Int64((showing.duration * 1e6).rounded()), cause: showing.cause.rawValue)
    }

    var durationSeconds: Double { Double(durationMicroseconds) / 1e6 }

    /// The journal fields, `NAME=value` each: a MESSAGE for people, the structured rest for
    /// `carouseld plays` and collectors.
    var journalFields: [String] {
        [
            "MESSAGE=played \(escapingControls(item)) on \(output) for \(formatted("%.3f", durationSeconds)) s (\(cause))",
            "MESSAGE_ID=\(Self.messageID)",
            "PRIORITY=6",
            "SYSLOG_IDENTIFIER=carouseld",
            "CAROUSELD_ITEM=\(item)",
            "CAROUSELD_OUTPUT=\(output)",
            "CAROUSELD_SHOWN_USEC=\(shownMicroseconds)",
            "CAROUSELD_DURATION_USEC=\(durationMicroseconds)",
            "CAROUSELD_CAUSE=\(cause)",
        ]
    }
}

/// Sends proof-of-play records to journald (`sd_journal_sendv`: the variadic sd_journal_send
/// cannot be called from Swift; the vector form is the same message).
enum PlayJournal {
    /// Sends one record; a journal that cannot be reached costs one warning per process, not
    /// one per picture.
    static func send(_ record: PlayRecord) {
        let fields = record.journalFields.map { Array($0.utf8) }
        let result = withIOVecs(fields) { sd_journal_sendv($0, Int32($1)) }
        if result < 0, !warned {
            warned = true
            Log.warning("proof of play: journald refused a record (\(String(cString: strerror(-result)))); "
                        + "records that cannot be sent are lost")
        }
    }

    nonisolated(unsafe) private static var warned = false

    /// Each field as an iovec over a copy of its bytes (a field may hold any byte, newlines too).
    private static func withIOVecs(_ fields: [[UInt8]], _ body: (UnsafePointer<iovec>, Int) -> Int32) -> Int32 {
        let buffers = fields.map { bytes in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
            buffer.copyBytes(from: bytes)
            return (buffer, bytes.count)
        }
        defer { buffers.forEach { $0.0.deallocate() } }
        let vectors = buffers.map { iovec(iov_base: $0.0.baseAddress, iov_len: $0.1) }
        return vectors.withUnsafeBufferPointer { vectors in
            guard let base = vectors.baseAddress else { return -EINVAL }
            return body(base, vectors.count)
        }
    }
}
