import CarouselEngine
import Glibc

/// A config directory, loaded and checked: the settings, the media directory and the playlist.
struct LoadedConfig: Sendable, Equatable {
    /// The engine's settings.
    var config: CarouselConfig
    /// Display, input, media and memory settings.
    var shell: ShellSettings
    /// The config directory, absolute.
    var directory: String
    /// The image directory, absolute (`media`, relative to `directory`).
    var mediaDirectory: String
    /// The pictures in show order (from `playlist.m3u`, or the media directory in natural order).
    var playlist: [PlaylistItem]
    /// The playlist file used, or nil when the media directory was listed.
    var playlistFile: String?
    /// Things that did not stop the load (unknown keys, refused or missing playlist entries),
    /// each formatted `file:line: key: message`.
    var warnings: [String]

    /// Per-item durations for `CarouselEngine.reconfigure(_:itemCount:itemDurations:keepIndex:now:)`.
    var itemDurations: [Double?] { playlist.map(\.duration) }
}

/// Loads `DIR/carouseld.conf` and the playlist. Every problem is collected (not just the first),
/// so `carouseld check` and the reload log show them all at once.
enum ConfigLoader {
    static let configFileName = "carouseld.conf"
    static let playlistFileName = "playlist.m3u"
    static let defaultDirectory = "/etc/carouseld"

    static func load(directory: String) throws(ConfigLoadError) -> LoadedConfig {
        let dir = MediaDirectory.absolute(directory, relativeTo: currentDirectory())
        var problems: [ConfigProblem] = []
        var warnings: [ConfigProblem] = []

        if let problem = MediaDirectory.problem(dir) {
            let why = problem == "does not exist" ? "not found or not a directory" : problem
            throw ConfigLoadError(problems: ["\(dir): directory: \(why)"])
        }

        // carouseld.conf is required: a half-synced directory without it must not reset to defaults.
        let confPath = dir + "/" + configFileName
        var values = ConfigValues()
        var confLines: KeyLines? = nil
        do {
            let parsed = ConfigFileParser.parse(bytes: try FileReading.read(confPath), file: confPath)
            values = parsed.values
            problems += parsed.problems
            warnings += parsed.warnings
            confLines = parsed.lines
        } catch {
            problems.append(ConfigProblem(file: confPath, line: nil, key: "file", message: FileReading.message(error)))
        }

        let mediaPath = MediaDirectory.absolute(values.shell.media, relativeTo: dir)
        var playlist: [PlaylistItem] = []
        var playlistFile: String? = nil
        if let media = MediaDirectory(path: mediaPath) {
            let listPath = dir + "/" + playlistFileName
            do {
                var (bytes, isCut) = try FileReading.readHead(listPath, limit: PlaylistParser.maxBytes)
                playlistFile = listPath
                var cutWarning: ConfigProblem? = nil
                if isCut {
                    // Keep whole lines only: the last one may be cut mid-name (or mid-character).
                    bytes.removeSubrange((bytes.lastIndex(of: 10).map { $0 + 1 } ?? 0)...)
                    let kept = bytes.reduce(0) { $1 == 10 ? $0 + 1 : $0 }
                    cutWarning = ConfigProblem(file: listPath, line: kept + 1, key: "playlist", message:
                        "cut here: the file is larger than \(PlaylistParser.maxBytes >> 20) MB, the limit; this line and the rest are ignored")
                }
                if let text = String(validating: bytes, as: UTF8.self), !bytes.contains(0) {
                    let parsed = PlaylistParser.parse(text: text, file: listPath, media: media)
                    playlist = parsed.items
                    warnings += parsed.warnings
                    if let cutWarning, !parsed.warnings.contains(where: { $0.message.hasPrefix("cut here") }) {
                        warnings.append(cutWarning)
                    }
                    if playlist.isEmpty {
                        problems.append(ConfigProblem(file: listPath, line: nil, key: "playlist",
                                                      message: "no playable entries"))
                    }
                } else {
                    problems.append(ConfigProblem(file: listPath, line: nil, key: "playlist",
                                                  message: "file is not valid UTF-8 text"))
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
        } else {
            // A symlink loop or a file in its place is named as such; otherwise the plain words.
            let why = MediaDirectory.problem(mediaPath).flatMap { $0.hasPrefix("is a ") ? $0 : nil } ?? "is not a directory"
            problems.append(ConfigProblem(file: confPath, line: confLines?.line(of: "media"), key: "media",
                                          message: "\(mediaPath) \(why)"))
        }

        guard problems.isEmpty else {
            throw ConfigLoadError(problems: problems.map(\.description), warnings: warnings.map(\.description))
        }
        return LoadedConfig(config: values.config, shell: values.shell, directory: dir, mediaDirectory: mediaPath, playlist: playlist,
                            playlistFile: playlistFile, warnings: warnings.map(\.description))
    }

    private static func currentDirectory() -> String {
        guard let p = getcwd(nil, 0) else { return "/" }
        defer { free(p) }
        return String(cString: p)
    }
}
