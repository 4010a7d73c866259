extension ConfigLoader {
    /// The playlists of the `[[output]]` tables (layout "independent" only; elsewhere the parser
    /// refused them), each path relative to the config directory and read like playlist.m3u.
    /// A missing, unreadable or empty one is a problem on the line of its `playlist` key.
    static func outputPlaylists(_ shell: ShellSettings, directory: String, media: MediaDirectory, confPath: String,
                                lines: KeyLines?)
        -> (playlists: [String: [PlaylistItem]], problems: [ConfigProblem], warnings: [ConfigProblem]) {
        var playlists: [String: [PlaylistItem]] = [:]
        var problems: [ConfigProblem] = [], warnings: [ConfigProblem] = []
        guard shell.layout == .independent else { return ([:], [], []) }
        // `outputs` holds the tables in file order, as the shim numbers them.
        for (index, table) in shell.outputs.enumerated() {
            guard let name = table.playlist, !name.isEmpty else { continue }
            let path = MediaDirectory.absolute(name, relativeTo: directory)
            let line = lines?.line(of: "playlist", table: OutputTableParser.tableName, index: index) ?? table.line
            func problem(_ message: String) {
                problems.append(ConfigProblem(file: confPath, line: line, key: "output.playlist", message: "\(path): \(message)"))
            }
            do {
                let read = try PlaylistFile.read(path, media: media)
                warnings += read.warnings
                if let why = read.problem { problem(why) } else { playlists[table.name] = read.items }
            } catch {
                problem(FileReading.message(error))
            }
        }
        return (playlists, problems, warnings)
    }
}
