import ArgumentParser
import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine

/// `carouseld check --config DIR`: loads the directory as the daemon would, prints every
/// problem, exits 1 on any error and 0 otherwise, like `nginx -t`.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a config directory, like nginx -t.",
        discussion: "Checks carouseld.conf (syntax, types, ranges) and the playlists, and the [[output]] connectors "
            + "against the DRM cards when any can be read; then decodes every picture "
            + "at card size for a screen of --size, on all cores, as the daemon would. "
            + "Problems are printed as file:line: key: message, and each picture the daemon would skip as "
            + "'skipping PATH: REASON' (more than three for one reason: 'skipping N pictures: REASON: the first three and N-3 more'). "
            + "It also warns when this box's kernel command line lets the console show text, a cursor or a "
            + "logo on the screen before the first frame. Exit status 1 on any error, 0 otherwise.")

    @Option(name: .long, help: "Config directory (carouseld.conf, playlist.m3u, images/).")
    var config = ConfigLoader.defaultDirectory

    @Option(name: .long, help: "Screen size WIDTHxHEIGHT the cards are decoded for (check has no display).")
    var size = "1920x1080"

    func validate() throws {
        guard DisplayMode(parsing: size) != nil else {
            throw ValidationError("--size \(size) is not WIDTHxHEIGHT (1...16384 each), e.g. 1920x1080")
        }
    }

    func run() throws {
        guard let mode = DisplayMode(parsing: size) else { throw ValidationError("--size \(size) is not WIDTHxHEIGHT") }
        let report = ConfigCheck.run(directory: config, screen: Size(width: Double(mode.width), height: Double(mode.height)))
        for warning in report.warnings { printError("carouseld: warning: \(warning)") }
        // The box's boot, not the config: said apart, and not counted in the config's summary.
        for warning in BootConsole.current() { printError("carouseld: warning: \(warning)") }
        for error in report.errors { printError("carouseld: error: \(error)") }
        if let decoding = report.decoding { print("carouseld: \(decoding.summary)") }
        if report.isValid {
            print("carouseld: \(report.summary)")
        } else {
            printError("carouseld: \(report.summary)")
            throw ExitCode.failure
        }
    }

    /// One line each: control characters in file names are escaped, never written raw.
    private func printError(_ line: String) {
        StandardError.write(escapingControls(line) + "\n")
    }
}
