import CarouselCore
import FoundationEssentials

/// The proof-of-play report: one row per showing (oldest first), and per picture how often and
/// how long it was shown, as a table for people, CSV or JSON for programs.
struct PlayReport {
    struct Total: Equatable, Encodable {
        var item: String
        var showings: Int
        var seconds: Double
    }

    enum Format: String, CaseIterable {
        case table, csv, json
    }

    let rows: [PlayRecord]
    let totals: [Total]

    /// The records shown from `since` to `until` (seconds since 1970, both included; nil: open).
    init(_ records: [PlayRecord], since: Double? = nil, until: Double? = nil) {
        let from = since.map { Int64(($0 * 1e6).rounded(.up)) } ?? .min
        let to = until.map { Int64(($0 * 1e6).rounded(.down)) } ?? .max
        rows = records.filter { (from...to).contains($0.shownMicroseconds) }
            .sorted { ($0.shownMicroseconds, $0.output, $0.host) < ($1.shownMicroseconds, $1.output, $1.host) }
        var byItem: [String: (count: Int, micro: Int64)] = [:]
        for row in rows { byItem[row.item, default: (0, 0)].count += 1; byItem[row.item, default: (0, 0)].micro += row.durationMicroseconds }
        totals = byItem.sorted { $0.key < $1.key }.map { Total(item: $0.key, showings: $0.value.count, seconds: Double($0.value.micro) / 1e6) }
    }

    /// The showings, then the totals per picture, in aligned columns.
    func table() -> String {
        let shown = [["SHOWN", "DURATION", "CAUSE", "OUTPUT", "HOST", "ITEM"]] + rows.map {
            [PlayTime.local($0.shownMicroseconds), seconds($0.durationMicroseconds), $0.cause, $0.output, $0.host,
             escapingControls($0.item)]
        }
        let sum = totals.reduce(0) { $0 + $1.seconds }
        let totalled = [["SHOWINGS", "SECONDS", "PICTURE"]]
            + totals.map { [String($0.showings), formatted("%.3f", $0.seconds), escapingControls($0.item)] }
            + [[String(rows.count), formatted("%.3f", sum), "(all pictures)"]]
        return Self.columns(shown, rightAligned: [1]) + "\n" + Self.columns(totalled, rightAligned: [0, 1])
    }

    /// One line per showing (`totals`: per picture instead), with a header line; RFC 4180 quoting.
    func csv(totals: Bool = false) -> String {
        let lines: [[String]]
        if totals {
            lines = [["item", "showings", "seconds"]]
                + self.totals.map { [$0.item, String($0.showings), formatted("%.3f", $0.seconds)] }
        } else {
            lines = [["shown", "shown_usec", "duration_seconds", "duration_usec", "cause", "output", "host", "item"]]
                + rows.map {
                    [PlayTime.iso($0.shownMicroseconds), String($0.shownMicroseconds), seconds($0.durationMicroseconds),
                     String($0.durationMicroseconds), $0.cause, $0.output, $0.host, $0.item]
                }
        }
        return lines.map { $0.map(Self.csvField).joined(separator: ",") + "\r\n" }.joined()
    }

    /// {"showings": [...], "totals": [...]}, keys sorted.
    func json() -> String {
        struct Row: Encodable {
            var shown: String, shownUsec: Int64, durationSeconds: Double, durationUsec: Int64
            var cause: String, output: String, host: String, item: String
        }
        struct Document: Encodable { var showings: [Row]; var totals: [Total] }
        let document = Document(showings: rows.map {
            Row(shown: PlayTime.iso($0.shownMicroseconds), shownUsec: $0.shownMicroseconds,
                durationSeconds: $0.durationSeconds, durationUsec: $0.durationMicroseconds,
                cause: $0.cause, output: $0.output, host: $0.host, item: $0.item)
        }, totals: totals)
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = (try? encoder.encode(document)) ?? Data(#"{"error":"the report could not be encoded"}"#.utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    func render(_ format: Format, totalsOnly: Bool = false) -> String {
        switch format {
        case .table: return table()
        case .csv: return csv(totals: totalsOnly)
        case .json: return json()
        }
    }

    private func seconds(_ microseconds: Int64) -> String { formatted("%.3f", Double(microseconds) / 1e6) }

    /// A field quoted when it holds a comma, a quote or a line break (quotes doubled).
    static func csvField(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacing("\"", with: "\"\"") + "\""
    }

    /// Rows padded to their columns' widths, two spaces apart; columns in `rightAligned` to the right.
    static func columns(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        let widths = rows.reduce(into: [Int]()) { widths, row in
            for (i, cell) in row.enumerated() {
                if i == widths.count { widths.append(0) }
                widths[i] = max(widths[i], cell.count)
            }
        }
        return rows.map { row in
            row.enumerated().map { i, cell in
                let padding = String(repeating: " ", count: widths[i] - cell.count)
                return rightAligned.contains(i) ? padding + cell : (i == row.count - 1 ? cell : cell + padding)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
