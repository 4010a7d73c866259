import ArgumentParser
import CarouselEngine
import Foundation

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a libinput recording through the engine.",
        discussion: """
            Reads a file written by `libinput record`, feeds its touches (and Left/Right keys, and \
            left-button pointer drags) through the same input path and engine as the daemon, with \
            the recording's timestamps, and prints one JSON object per line: release, tap, \
            activated and settled events.
            """)

    @Argument(help: "A `libinput record` YAML file.")
    var recording: String

    @Option(help: "Screen size WIDTHxHEIGHT the touches are mapped to, e.g. 1280x800.")
    var size: String

    @Option(help: "Config directory (carouseld.conf); defaults are used without it.")
    var config: String?

    @Option(help: "Number of pictures in the carousel.")
    var items: Int = 5

    @Option(help: "Write the frames a 60 Hz screen would show as PNG files into this directory.")
    var frames: String?

    func validate() throws {
        guard DisplayMode(parsing: size) != nil else {
            throw ValidationError("--size \(size) is not a size; use WIDTHxHEIGHT such as 1280x800")
        }
        guard items >= 0 else { throw ValidationError("--items \(items) must be 0 or more") }
    }

    func run() throws {
        if config != nil {
            throw ValidationError("--config needs the config loader, which is not in this build yet")
        }
        if frames != nil {
            throw ValidationError("--frames needs the compositor, which is not in this build yet")
        }
        let mode = DisplayMode(parsing: size)!
        let replay = Replay(config: CarouselConfig(), screen: Size(width: Double(mode.width), height: Double(mode.height)),
                            itemCount: items)
        do {
            try replay.run(path: recording, emit: { print($0) })
        } catch let error as RecordingError {
            Log.error("replay: \(error)")
            throw ExitCode.failure
        }
    }
}
