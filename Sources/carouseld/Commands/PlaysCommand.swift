import ArgumentParser
import CarouselCore
import Glibc

/// `carouseld plays`: the proof-of-play report, read back from the journal the daemon wrote
/// its records to (or from a collector's journal of many boxes).
struct PlaysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plays",
        abstract: "Proof of play: which picture each screen showed, from when, for how long, and why it left.",
        discussion: """
            Reads the records the daemon sends to the journal (MESSAGE_ID=\(PlayRecord.messageID)) and prints
            one row per showing, oldest first, then per picture the number of showings and the seconds shown.
            --since and --until select showings by the time they began: \(PlayTime.accepted).
            On a collector, --directory reads what systemd-journal-remote keeps (e.g. /var/log/journal/remote)
            and --file reads journal files. Reading the system journal needs root or group adm/systemd-journal.
            """)

    // Unconditional: "-1h" is a value, not an option.
    @Option(parsing: .unconditional, help: "Showings that began at or after this time.")
    var since: String?

    @Option(parsing: .unconditional, help: "Showings that began at or before this time.")
    var until: String?

    @Option(help: "Only this screen (connector name, as CAROUSELD_OUTPUT).")
    var output: String?

    @Option(help: "Only this box (its host name, _HOSTNAME), on a collector.")
    var host: String?

    @Option(help: "table (for people), csv or json.")
    var format: PlayReport.Format = .table

    @Flag(help: "csv: the totals per picture instead of the showings.")
    var totals = false

    @Option(help: "Read the journal files in this directory (a collector's), not the system journal.")
    var directory: String?

    @Option(help: "Read this journal file (repeat for several), not the system journal.")
    var file: [String] = []

    func validate() throws {
        if directory != nil && !file.isEmpty {
            throw ValidationError("--directory \(directory ?? "") and --file \(file.joined(separator: ", ")): give one of them")
        }
        let now = WallClock.now()
        let from = try time(since, "--since", now: now), to = try time(until, "--until", now: now)
        if let from, let to, from > to {
            throw ValidationError("--since \(since ?? "") is after --until \(until ?? "")")
        }
    }

    func run() throws {
        let now = WallClock.now()
        let from = try time(since, "--since", now: now), to = try time(until, "--until", now: now)
        let source: PlaySource = directory.map { .directory($0) } ?? (file.isEmpty ? .local : .files(file))
        let read: PlayJournalReader.Result
        do {
            read = try PlayJournalReader.read(source, output: output, host: host, since: from)
        } catch {
            StandardError.write("carouseld plays: \(error)\n")
            throw ExitCode.failure
        }
        if read.malformed > 0 {
            StandardError.write("carouseld plays: warning: \(read.malformed) entries with carouseld's MESSAGE_ID lack its fields; skipped\n")
        }
        let report = PlayReport(read.records, since: from, until: to)
        print(report.render(format, totalsOnly: totals), terminator: "")
        if report.rows.isEmpty && source == .local && getuid() != 0 {
            StandardError.write("carouseld plays: no showings in the journals this user may read "
                                + "(the system journal needs root or group adm/systemd-journal)\n")
        }
    }

    /// The option's time, or an error naming the option, its value and what is accepted.
    private func time(_ text: String?, _ option: String, now: Double) throws -> Double? {
        guard let text else { return nil }
        guard let seconds = PlayTime.seconds(text, now: now) else {
            throw ValidationError("\(option) '\(text)' is not a time; give \(PlayTime.accepted)")
        }
        return seconds
    }
}

extension PlayReport.Format: ExpressibleByArgument {}
