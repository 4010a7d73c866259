import CarouselCore
/// Reads one playlist file against the media directory: `playlist.m3u`, or the `playlist` of
/// an `[[output]]`. One function for both, so both get the same size limit and the same rules.
package enum PlaylistFile {
    package struct Read {
        package var items: [PlaylistItem] = []
        /// Refused or missing entries, and the cut of a file over the size limit.
        package var warnings: [ConfigProblem] = []
        /// Why the file cannot be used ("no playable entries"); nil when it can.
        package var problem: String? = nil
    }

    package static func read(_ path: String, media: MediaDirectory) throws(FileReading.Failure) -> Read {
        var (bytes, isCut) = try FileReading.readHead(path, limit: PlaylistParser.maxBytes)
        var cutWarning: ConfigProblem? = nil
        if isCut {
            // Keep whole lines only: the last one may be cut mid-name (or mid-character).
            bytes.removeSubrange((bytes.lastIndex(of: 10).map { $0 + 1 } ?? 0)...)
            let kept = bytes.reduce(0) { $1 == 10 ? $0 + 1 : $0 }
            cutWarning = ConfigProblem(file: path, line: kept + 1, key: "playlist", message:
                "cut here: the file is larger than \(PlaylistParser.maxBytes >> 20) MB, the limit; this line and the rest are ignored")
        }
        guard let text = String(validating: bytes, as: UTF8.self), !bytes.contains(0) else {
            return Read(problem: "file is not valid UTF-8 text")
        }
        let parsed = PlaylistParser.parse(text: text, file: path, media: media)
        var read = Read(items: parsed.items, warnings: parsed.warnings)
        if let cutWarning, !parsed.warnings.contains(where: { $0.message.hasPrefix("cut here") }) {
            read.warnings.append(cutWarning)
        }
        if read.items.isEmpty { read.problem = "no playable entries" }
        return read
    }
}
