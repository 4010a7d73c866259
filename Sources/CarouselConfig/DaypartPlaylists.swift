import CarouselCore
extension ConfigLoader {
    /// The playlists of the `[[playlist]]` tables, each path relative to the config directory
    /// and read like playlist.m3u, keyed by the table's `file`. A missing, unreadable or empty
    /// one is a problem on its table's line: `check` names it before the window comes.
    package static func daypartPlaylists(_ shell: ShellSettings, directory: String, media: MediaDirectory, confPath: String)
        -> (playlists: [String: [PlaylistItem]], problems: [ConfigProblem], warnings: [ConfigProblem]) {
        var playlists: [String: [PlaylistItem]] = [:]
        var problems: [ConfigProblem] = [], warnings: [ConfigProblem] = []
        for daypart in shell.schedule.dayparts where playlists[daypart.file] == nil {
            let read = tablePlaylist(daypart.file, directory: directory, media: media, confPath: confPath,
                                     line: daypart.line, key: "playlist.file")
            playlists[daypart.file] = read.items
            problems += read.problems
            warnings += read.warnings
        }
        return (playlists, problems, warnings)
    }
}

extension LoadedConfig {
    /// The playlist for wall-clock time `time` (seconds since 1970, read in local time): the
    /// first `[[playlist]]` whose window holds it, else the main one. `file` is nil for the main one.
    /// A nil time (a clock not yet synchronised) is the main one.
    package func daypart(at time: Double?) -> (file: String?, items: [PlaylistItem]) {
        let file = time.flatMap { daypartFile(at: LocalTime($0)) }
        return (file, file.flatMap { daypartPlaylists[$0] } ?? playlist)
    }

    /// The `[[playlist]]` file in force at a local time; nil for the main playlist.
    package func daypartFile(at local: LocalTime) -> String? {
        shell.schedule.dayparts.first { $0.window.contains(local) && daypartPlaylists[$0.file] != nil }?.file
    }
}
