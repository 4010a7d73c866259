import ArgumentParser

/// `carouseld check --config DIR`: loads the directory as the daemon would, prints every
/// problem, exits 1 on any error and 0 otherwise, like `nginx -t`.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a config directory, like nginx -t.",
        discussion: "Checks carouseld.conf (syntax, types, ranges), the playlist and that every picture can be read. "
            + "Problems are printed as file:line: key: message. Exit status 1 on any error, 0 otherwise.")

    @Option(name: .long, help: "Config directory (carouseld.conf, playlist.m3u, images/).")
    var config = ConfigLoader.defaultDirectory

    func run() throws {
        let report = ConfigCheck.run(directory: config)
        for warning in report.warnings { printError("carouseld: warning: \(warning)") }
        for error in report.errors { printError("carouseld: error: \(error)") }
        if report.isValid {
            print("carouseld: \(report.summary)")
        } else {
            printError("carouseld: \(report.summary)")
            throw ExitCode.failure
        }
    }

    private func printError(_ line: String) {
        StandardError.write(line + "\n")
    }
}
