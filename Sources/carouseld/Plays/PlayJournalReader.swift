import CarouselCore
import CSystemd
import Glibc

/// Where `carouseld plays` reads: the box's own journal, or a collector's directory or files
/// (what systemd-journal-remote writes).
enum PlaySource: Equatable {
    case local
    case directory(String)
    case files([String])
}

/// A journal that could not be read, with the thing and the reason.
struct PlayReadError: Error, CustomStringConvertible {
    var description: String
}

/// Reads proof-of-play records back with sd-journal: every entry with carouseld's MESSAGE_ID
/// (and the output or host asked for), from `since` on.
enum PlayJournalReader {
    struct Result {
        var records: [PlayRecord] = []
        /// Entries with the MESSAGE_ID whose fields are missing or not numbers.
        var malformed = 0
    }

    static func read(_ source: PlaySource, output: String? = nil, host: String? = nil,
                     since: Double? = nil) throws(PlayReadError) -> Result {
        try checkReadable(source)
        var handle: OpaquePointer?
        let opened: Int32
        switch source {
        case .local: opened = sd_journal_open(&handle, 0)
        case .directory(let path): opened = sd_journal_open_directory(&handle, path, 0)
        case .files(let paths): opened = withCStringArray(paths) { sd_journal_open_files(&handle, $0, 0) }
        }
        guard opened >= 0, let journal = handle else {
            throw PlayReadError(description: "opening \(describe(source)): \(String(cString: strerror(-opened)))")
        }
        defer { sd_journal_close(journal) }
        _ = sd_journal_set_data_threshold(journal, 0)   // whole fields: a long path is not cut
        var matches = ["MESSAGE_ID=\(PlayRecord.messageID)"]
        if let output { matches.append("CAROUSELD_OUTPUT=\(output)") }
        if let host { matches.append("_HOSTNAME=\(host)") }
        for match in matches {
            let added = match.withCString { sd_journal_add_match(journal, $0, 0) }
            guard added >= 0 else { throw PlayReadError(description: "journal match \(match): \(String(cString: strerror(-added)))") }
        }
        // A record is written when its showing ends, so never before it began: entries older
        // than `since` hold no showing from `since` on.
        if let since, since > 0 { _ = sd_journal_seek_realtime_usec(journal, UInt64(since * 1e6)) }
        var result = Result()
        while true {
            let step = sd_journal_next(journal)
            guard step >= 0 else { throw PlayReadError(description: "reading \(describe(source)): \(String(cString: strerror(-step)))") }
            guard step > 0 else { break }
            if let record = record(journal) { result.records.append(record) } else { result.malformed += 1 }
        }
        return result
    }

    /// The entry the journal is on, if it has every field of a record.
    private static func record(_ journal: OpaquePointer) -> PlayRecord? {
        guard let item = field(journal, "CAROUSELD_ITEM"), let output = field(journal, "CAROUSELD_OUTPUT"),
              let shown = field(journal, "CAROUSELD_SHOWN_USEC").flatMap({ Int64($0) }),
              let duration = field(journal, "CAROUSELD_DURATION_USEC").flatMap({ Int64($0) }),
              let cause = field(journal, "CAROUSELD_CAUSE") else { return nil }
        return PlayRecord(item: item, output: output, shownMicroseconds: shown, durationMicroseconds: duration,
                          cause: cause, host: field(journal, "_HOSTNAME") ?? "")
    }

    /// The value of `name` in the current entry ("NAME=value" in the journal).
    private static func field(_ journal: OpaquePointer, _ name: String) -> String? {
        var data: UnsafeRawPointer?
        var length = 0
        guard sd_journal_get_data(journal, name, &data, &length) >= 0, let data, length > name.utf8.count else { return nil }
        let bytes = UnsafeRawBufferPointer(start: data, count: length).dropFirst(name.utf8.count + 1)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A directory or file that cannot be read is named with the reason, before sd-journal
    /// (which reads an empty directory as an empty journal) can say less.
    private static func checkReadable(_ source: PlaySource) throws(PlayReadError) {
        switch source {
        case .local:
            return
        case .directory(let path):
            guard let directory = opendir(path) else {
                throw PlayReadError(description: "--directory \(path): \(String(cString: strerror(errno)))")
            }
            closedir(directory)
        case .files(let paths):
            for path in paths {
                let fd = open(path, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { throw PlayReadError(description: "--file \(path): \(String(cString: strerror(errno)))") }
                close(fd)
            }
        }
    }

    private static func describe(_ source: PlaySource) -> String {
        switch source {
        case .local: return "the journal"
        case .directory(let path): return "the journal in --directory \(path)"
        case .files(let paths): return "the journal file(s) " + paths.joined(separator: ", ")
        }
    }

    /// `paths` as a NULL-terminated array of C strings, for the call's duration.
    private static func withCStringArray<R>(_ paths: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = paths.map { strdup($0) }
        let array = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: paths.count + 1)
        defer { copies.forEach { free($0) }; array.deallocate() }
        for (index, copy) in copies.enumerated() { array[index] = UnsafePointer(copy) }
        array[paths.count] = nil
        return body(array)
    }
}
