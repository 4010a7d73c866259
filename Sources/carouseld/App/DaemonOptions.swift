import CarouselConfig
import CarouselEngine
/// What `carouseld run` was asked for on the command line.
struct DaemonOptions: Equatable {
    var configDirectory: String
    var output: String?
    var mode: String?
    var rotation: Int?
    var forceLegacy = false
    var backend: DisplayBackend?
    /// Card cache directory (`--cache-dir`); else systemd's $CACHE_DIRECTORY.
    var cacheDirectory: String? = nil
    /// Control socket (`--control`); else in systemd's $RUNTIME_DIRECTORY or /run/carouseld.
    var controlPath: String? = nil

    /// What the overrides' own rules refuse (the rules of the config keys they override).
    var overrideIssues: [ConfigIssue] { overriding(ShellSettings()).validate() }

    /// The config's shell settings with the command line winning.
    func overriding(_ shell: ShellSettings) -> ShellSettings {
        var settings = shell
        if let output {
            settings.output = output
            settings.outputs = []   // one named connector on the command line: that screen alone
        }
        if let mode { settings.mode = mode }
        if let rotation { settings.rotation = rotation }
        if forceLegacy { settings.kms.forceLegacy = true }
        if let backend { settings.backend = backend }
        return settings
    }
}
