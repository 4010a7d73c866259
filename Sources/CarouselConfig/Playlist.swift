/// One picture of the carousel, in show order.
package struct PlaylistItem: Sendable, Equatable {
    /// Full path of the image file (inside the media directory).
    package var path: String
    /// Seconds to rest on this item before auto-advancing (`#EXTINF`); nil uses `interval`.
    package var duration: Double?
    /// Title from `#EXTINF`, if any.
    package var title: String?

    package init(path: String, duration: Double? = nil, title: String? = nil) {
        self.path = path; self.duration = duration; self.title = title
    }

    /// The file name, for the status line ("beach.jpg").
    package var name: String { path.split(separator: "/").last.map(String.init) ?? path }
}

/// Reads `playlist.m3u`: one path per line relative to the media directory, `#` comments, and
/// `#EXTINF:SECONDS,title` giving the duration and title of the next path.
package enum PlaylistParser {
    package struct Result {
        package var items: [PlaylistItem] = []
        /// Refused or missing entries and unreadable `#EXTINF` lines (logged, then skipped).
        package var warnings: [ConfigProblem] = []
    }

    /// Longest per-item duration accepted; matches `interval`'s range.
    package static let maxDuration: Double = 86_400
    /// At most this many entries (path lines) are read; the rest of a longer playlist is
    /// ignored with one warning. Each entry costs a realpath and a stat on the event loop.
    package static let maxEntries = 10_000
    /// At most this much of `playlist.m3u` is read (10 000 entries of 400 bytes each); a longer
    /// file is cut after its last whole line within it, with one warning.
    package static let maxBytes = 4 << 20

    package static func parse(text: String, file: String, media: MediaDirectory) -> Result {
        var result = Result()
        var pending: (duration: Double?, title: String?, line: Int)? = nil
        var text = Substring(text)
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        var entries = 0
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isLineFeed)
        for (offset, raw) in lines.enumerated() {
            let lineNumber = offset + 1
            let line = raw.trimmingLineSpaces()
            if line.isEmpty { continue }
            if !line.hasPrefix("#") {
                entries += 1
                if entries > maxEntries {
                    let rest = lines.count - offset - (lines.last?.isEmpty == true ? 1 : 0)
                    result.warnings.append(ConfigProblem(file: file, line: lineNumber, key: "playlist", message:
                        "cut here: more than \(maxEntries) entries, the limit; this line and the \(rest - 1) after it are ignored"))
                    break
                }
            }
            if line.hasPrefix("#EXTINF:") {
                pending = parseExtinf(line.dropFirst("#EXTINF:".count), file: file, line: lineNumber,
                                      warnings: &result.warnings)
                continue
            }
            if line.hasPrefix("#") { continue } // comments, #EXTM3U and other directives
            let entry = String(line)
            defer { pending = nil }
            switch media.resolve(entry) {
            case .inside(let path):
                result.items.append(PlaylistItem(path: path, duration: pending?.duration, title: pending?.title))
            case .outside(let target):
                result.warnings.append(ConfigProblem(file: file, line: lineNumber, key: entry, message:
                    "resolves to \(target), outside the media directory \(media.path); refused",
                    kind: .init(file: file, message: "outside the media directory \(media.path); refused")))
            case .missing:
                result.warnings.append(ConfigProblem(file: file, line: lineNumber, key: entry,
                                                     message: "not found in \(media.path); skipped",
                                                     kind: .init(file: file, message: "not found in \(media.path); skipped")))
            case .notAFile:
                result.warnings.append(ConfigProblem(file: file, line: lineNumber, key: entry,
                                                     message: "not a regular file; skipped",
                                                     kind: .init(file: file, message: "not regular files; skipped")))
            }
        }
        return result
    }

    /// "SECONDS,title": SECONDS of -1 or 0 means unknown (the m3u convention), so no override.
    private static func parseExtinf(_ body: Substring, file: String, line: Int,
                                    warnings: inout [ConfigProblem]) -> (Double?, String?, Int) {
        let comma = body.firstIndex(of: ",")
        let secondsText = (comma.map { body[..<$0] } ?? body).trimmingLineSpaces()
        let titleText = comma.map { body[body.index(after: $0)...].trimmingLineSpaces() }
        let title = titleText.flatMap { $0.isEmpty ? nil : String($0) }
        guard let seconds = Double(secondsText), seconds.isFinite else {
            warnings.append(ConfigProblem(file: file, line: line, key: "#EXTINF", message:
                "\"\(secondsText)\" is not a number of seconds; the item uses the default interval"))
            return (nil, title, line)
        }
        if seconds <= 0 { return (nil, title, line) }
        guard seconds <= maxDuration else {
            warnings.append(ConfigProblem(file: file, line: line, key: "#EXTINF", message:
                "\(secondsText) is out of range; allowed up to \(Int(maxDuration)) seconds; the item uses the default interval"))
            return (nil, title, line)
        }
        return (seconds, title, line)
    }
}

extension Substring {
    /// Drops spaces, tabs and the `\r` of CRLF line ends at both ends of one playlist line
    /// (a name differs from `trimmingWhitespace`, which also drops line breaks: a Substring
    /// would otherwise get this one where that one was meant).
    package func trimmingLineSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}

extension Character {
    /// A line end as files count lines ("\n" or CRLF, which Swift reads as one Character).
    package var isLineFeed: Bool { self == "\n" || self == "\r\n" }
}
