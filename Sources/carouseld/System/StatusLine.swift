/// The texts of systemd's STATUS= line.
enum StatusLine {
    /// "showing 3/12 beach.jpg" (1-based, as people count).
    static func showing(index: Int, count: Int, name: String) -> String {
        count == 0 ? "no images" : "showing \(index + 1)/\(count) \(name)"
    }

    /// "config invalid: <first problem> (and 2 more)": the line is short, the journal has them all.
    static func invalid(_ problems: [String]) -> String {
        guard let first = problems.first else { return "config invalid" }
        let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
        return "config invalid: \(first)\(more)"
    }

    /// "cannot show: a4.png: truncated PNG data (and 1 more)".
    static func failed(_ cards: [String]) -> String {
        guard let first = cards.first else { return "" }
        return "cannot show: \(first)" + (cards.count > 1 ? " (and \(cards.count - 1) more)" : "")
    }
}
