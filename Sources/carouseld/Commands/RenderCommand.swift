import ArgumentParser
import CarouselEngine
import Foundation

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render frames of the carousel to PNG files, with no display.",
        discussion: """
            Writes one PNG per time in --at, named frame-SSSS.mmm.png (e.g. frame-0001.500.png for \
            1.5 s), of the undisturbed carousel (auto-advance included) or of --input's touches.
            """)

    @Option(help: "Config directory: carouseld.conf and its image directory.")
    var config: String = "config/example"

    @Option(help: "Frame size WIDTHxHEIGHT.")
    var size: String = "1920x1080"

    @Option(help: "Comma-separated times in seconds, e.g. 0,1.5,3.")
    var at: String = "0"

    @Option(help: "Output directory for the PNG files (created if missing).")
    var out: String

    @Option(help: "JSON touch script: [{\"t\":1.0,\"slot\":0,\"phase\":\"down\",\"x\":900,\"y\":400}, ...].")
    var input: String?

    func validate() throws {
        guard DisplayMode(parsing: size) != nil else {
            throw ValidationError("--size \(size) is not WIDTHxHEIGHT (1...16384 each), e.g. 1920x1080")
        }
        _ = try times()
    }

    private func times() throws -> [Double] {
        let parts = at.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let values = parts.compactMap(Double.init)
        guard !parts.isEmpty, values.count == parts.count, values.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 86_400 })
        else { throw ValidationError("--at \(at) must be comma-separated seconds between 0 and 86400, e.g. 0,1.5,3") }
        return values.sorted()
    }

    func run() throws {
        // Until the carouseld.conf loader lands, the defaults apply; the pictures come from
        // the config directory's media folder.
        let settings = CarouselConfig()
        let mode = DisplayMode(parsing: size)!
        let mediaDirectory = settings.media.hasPrefix("/") ? settings.media : "\(config)/\(settings.media)"
        var listed: [String] = []
        do { listed = try MediaListing.imagePaths(in: mediaDirectory) } catch {
            Log.warning("cannot list \(mediaDirectory): \(error.localizedDescription)")
        }
        let paths = OfflineRenderer.usablePaths(listed, maxPixels: settings.maxImagePixels, source: mediaDirectory)
        let touches = try input.map { path throws(TouchScript.Failure) in try TouchScript.load(path) } ?? []
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let renderer = try OfflineRenderer(config: settings, paths: paths, width: mode.width, height: mode.height,
                                           touches: touches)
        for time in try times() {
            let path = "\(out)/\(OfflineRenderer.fileName(at: time))"
            try PNGWriter.write(renderer.frame(at: time), to: path)
            print(path)
        }
    }
}
