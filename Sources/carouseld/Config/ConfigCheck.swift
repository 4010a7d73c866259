/// What `carouseld check` finds in a config directory: everything the daemon would load,
/// plus whether each picture can be read. Errors make the check fail; warnings do not.
struct ConfigCheckReport: Equatable {
    var directory: String
    var errors: [String] = []
    var warnings: [String] = []
    var imageCount = 0

    var isValid: Bool { errors.isEmpty }

    /// The closing line, in the spirit of `nginx -t`.
    var summary: String {
        isValid
            ? "configuration \(directory) is ok: \(imageCount) image(s)"
                + (warnings.isEmpty ? "" : ", \(warnings.count) warning(s)")
            : "configuration \(directory) is invalid: \(errors.count) error(s)"
    }
}

enum ConfigCheck {
    /// Says why the picture at a path cannot be shown (nil when it can), given `max_image_pixels`.
    typealias ImageProbe = (_ path: String, _ maxPixels: Int) -> String?

    /// The decoders' header probe: format by magic bytes, dimensions, and the pixel cap, without
    /// decoding the pixels.
    static func headerProblem(path: String, maxPixels: Int) -> String? {
        do {
            _ = try ImageDecoder.probe(path: path, maxPixels: maxPixels)
            return nil
        } catch {
            return error.description
        }
    }

    static func run(directory: String, probe: ImageProbe = headerProblem) -> ConfigCheckReport {
        var report = ConfigCheckReport(directory: directory)
        let loaded: LoadedConfig
        do {
            loaded = try ConfigLoader.load(directory: directory)
        } catch {
            report.errors = error.problems
            report.warnings = error.warnings
            return report
        }
        report.directory = loaded.directory
        report.warnings = loaded.warnings
        report.imageCount = loaded.playlist.count
        // Each file once, even if the playlist repeats it.
        var seen = Set<String>()
        for item in loaded.playlist where seen.insert(item.path).inserted {
            if let problem = probe(item.path, loaded.config.maxImagePixels) {
                report.errors.append("\(item.path): image: \(problem)")
            }
        }
        return report
    }
}
