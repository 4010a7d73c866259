import CarouselCore
extension ConfigLoader {
    /// The playlists of the `[[output]]` tables (layout "independent" only; elsewhere the parser
    /// refused them), each path relative to the config directory and read like playlist.m3u.
    /// A missing, unreadable or empty one is a problem on the line of its `playlist` key.
    package static func outputPlaylists(_ shell: ShellSettings, directory: String, media: MediaDirectory, confPath: String,
                                lines: KeyLines?)
        -> (playlists: [String: [PlaylistItem]], problems: [ConfigProblem], warnings: [ConfigProblem]) {
        var playlists: [String: [PlaylistItem]] = [:]
        var problems: [ConfigProblem] = [], warnings: [ConfigProblem] = []
        guard shell.layout == .independent else { return ([:], [], []) }
        // `outputs` holds the tables in file order, as the shim numbers them.
        for (index, table) in shell.outputs.enumerated() {
            guard let name = table.playlist, !name.isEmpty else { continue }
            let line = lines?.line(of: "playlist", table: OutputTableParser.tableName, index: index) ?? table.line
            let read = tablePlaylist(name, directory: directory, media: media, confPath: confPath, line: line,
                                     key: "output.playlist")
            playlists[table.name] = read.items
            problems += read.problems
            warnings += read.warnings
        }
        return (playlists, problems, warnings)
    }

    /// A playlist named in a table of carouseld.conf, read like playlist.m3u: its items, or a
    /// problem (missing, unreadable, empty) on the line of the key that names it.
    package static func tablePlaylist(_ name: String, directory: String, media: MediaDirectory, confPath: String, line: Int?,
                              key: String) -> (items: [PlaylistItem]?, problems: [ConfigProblem], warnings: [ConfigProblem]) {
        let path = MediaDirectory.absolute(name, relativeTo: directory)
        func problem(_ message: String) -> ConfigProblem {
            ConfigProblem(file: confPath, line: line, key: key, message: "\(path): \(message)")
        }
        do {
            let read = try PlaylistFile.read(path, media: media)
            if let why = read.problem { return (nil, [problem(why)], read.warnings) }
            return (read.items, [], read.warnings)
        } catch {
            return (nil, [problem(FileReading.message(error))], [])
        }
    }
}
