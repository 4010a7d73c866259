import CarouselCore
import CarouselEngine
import Glibc

/// A config directory, loaded and checked: the settings, the media directory and the playlist.
package struct LoadedConfig: Sendable, Equatable {
    /// The engine's settings.
    package var config: CarouselConfig
    /// Display, input, media and memory settings.
    package var shell: ShellSettings
    /// The config directory, absolute.
    package var directory: String
    /// The image directory, absolute (`media`, relative to `directory`).
    package var mediaDirectory: String
    /// The pictures in show order (from `playlist.m3u`, or the media directory in natural order).
    package var playlist: [PlaylistItem]
    /// The playlist file used, or nil when the media directory was listed.
    package var playlistFile: String?
    /// The `playlist` of each `[[output]]` that has one (layout "independent"), by connector.
    package var outputPlaylists: [String: [PlaylistItem]] = [:]
    /// The playlist of each `[[playlist]]` table (dayparting), by its `file`.
    package var daypartPlaylists: [String: [PlaylistItem]] = [:]
    /// FNV-1a of `carouseld.conf`'s bytes as they were parsed: what a kept start frame is keyed
    /// by (the parsed settings have no stable text of their own short of reflection, 40 ms at
    /// start). A change of comments or spacing alone is no reload (`ReloadController.accept`).
    package var configDigest: UInt64 = 0
    /// Things that did not stop the load (unknown keys, refused or missing playlist entries),
    /// each formatted `file:line: key: message`.
    package var warnings: [String]

    /// Per-item durations for `CarouselEngine.reconfigure(_:itemCount:itemDurations:keepIndex:now:)`.
    package var itemDurations: [Double?] { playlist.map(\.duration) }

    /// What the screen on connector `name` shows: its own playlist, or the main one.
    package func playlist(forOutput name: String) -> [PlaylistItem] { outputPlaylists[name] ?? playlist }
}

/// Loads `DIR/carouseld.conf` and the playlist. Every problem is collected (not just the first),
/// so `carouseld check` and the reload log show them all at once.
package enum ConfigLoader {
    package static let configFileName = "carouseld.conf"
    package static let playlistFileName = "playlist.m3u"
    package static let defaultDirectory = "/etc/carouseld"

    /// `filesFrom`: read carouseld.conf and the playlists from another directory (the last good
    /// config's copy, `LastGoodConfig`), while relative paths still mean `directory`'s.
    package static func load(directory: String, filesFrom: String? = nil) throws(ConfigLoadError) -> LoadedConfig {
        let dir = MediaDirectory.absolute(directory, relativeTo: currentDirectory())
        let files = filesFrom ?? dir
        var problems: [ConfigProblem] = []
        var warnings: [ConfigProblem] = []

        if let problem = MediaDirectory.problem(dir) {
            let why = problem == "does not exist" ? "not found or not a directory" : problem
            throw ConfigLoadError(problems: ["\(dir): directory: \(why)"])
        }

        // carouseld.conf is required: a half-synced directory without it must not reset to defaults.
        let confPath = files + "/" + configFileName
        var values = ConfigValues()
        var confLines: KeyLines? = nil
        var configDigest: UInt64 = 0
        do {
            let bytes = try FileReading.read(confPath)
            configDigest = bytes.withUnsafeBytes { FNV.hash($0) }
            let parsed = ConfigFileParser.parse(bytes: bytes, file: confPath)
            values = parsed.values
            problems += parsed.problems
            warnings += parsed.warnings
            confLines = parsed.lines
        } catch {
            problems.append(ConfigProblem(file: confPath, line: nil, key: "file", message: FileReading.message(error)))
        }

        let mediaPath = MediaDirectory.absolute(values.shell.media.directory, relativeTo: dir)
        var playlist: [PlaylistItem] = []
        var playlistFile: String? = nil
        var outputPlaylists: [String: [PlaylistItem]] = [:]
        var daypartPlaylists: [String: [PlaylistItem]] = [:]
        if let media = MediaDirectory(path: mediaPath) {
            let listPath = files + "/" + playlistFileName
            do {
                let read = try PlaylistFile.read(listPath, media: media)
                playlistFile = listPath
                playlist = read.items
                warnings += read.warnings
                if let problem = read.problem {
                    problems.append(ConfigProblem(file: listPath, line: nil, key: "playlist", message: problem))
                }
            } catch .missing {
                let scanned = media.scan()
                playlist = scanned.paths.map { PlaylistItem(path: $0) }
                warnings += scanned.refused
                if playlist.isEmpty {
                    problems.append(ConfigProblem(file: confPath, line: confLines?.line(of: "media"), key: "media",
                        message: "no images in \(mediaPath) (supported: .jpg .jpeg .png .webp)"))
                }
            } catch {
                problems.append(ConfigProblem(file: listPath, line: nil, key: "playlist",
                                              message: FileReading.message(error)))
            }
            let outputs = Self.outputPlaylists(values.shell, directory: files, media: media, confPath: confPath, lines: confLines)
            outputPlaylists = outputs.playlists
            problems += outputs.problems
            warnings += outputs.warnings
            let dayparts = Self.daypartPlaylists(values.shell, directory: files, media: media, confPath: confPath)
            daypartPlaylists = dayparts.playlists
            problems += dayparts.problems
            warnings += dayparts.warnings
        } else {
            // A symlink loop or a file in its place is named as such; otherwise the plain words.
            let why = MediaDirectory.problem(mediaPath).flatMap { $0.hasPrefix("is a ") ? $0 : nil } ?? "is not a directory"
            problems.append(ConfigProblem(file: confPath, line: confLines?.line(of: "media"), key: "media",
                                          message: "\(mediaPath) \(why)"))
        }

        guard problems.isEmpty else {
            throw ConfigLoadError(problems: problems.map(\.description), warnings: ConfigProblem.summarised(warnings))
        }
        return LoadedConfig(config: values.config, shell: values.shell, directory: dir, mediaDirectory: mediaPath, playlist: playlist,
                            playlistFile: playlistFile, outputPlaylists: outputPlaylists, daypartPlaylists: daypartPlaylists,
                            configDigest: configDigest, warnings: ConfigProblem.summarised(warnings))
    }

    private static func currentDirectory() -> String {
        guard let p = getcwd(nil, 0) else { return "/" }
        defer { free(p) }
        return String(cString: p)
    }
}
