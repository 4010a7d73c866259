import ArgumentParser
import CarouselBackends
import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels
import FoundationEssentials

/// The operator's first picture as the boot splash (issue 46): a plymouth theme whose one image is
/// the carousel's first frame, so the glass shows the operator's content from plymouth's start,
/// and the handover to the daemon's identical first frame is invisible.
struct SplashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splash",
        abstract: "Make the carousel's first picture the boot splash (a plymouth theme).",
        subcommands: [SplashInstall.self])
}

struct SplashInstall: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Write the plymouth theme 'carouseld' from the first frame and make it plymouth's default.",
        discussion: """
            The theme's picture is the carousel's frame at 0 s (as `render --at 0`), or --picture \
            laid out the same way, at the first connected screen's mode (else --size). Then \
            `plymouth-set-default-theme --rebuild-initrd carouseld` makes it the default and puts it \
            in the initramfs, unless --theme-only. Run it again after the first picture changes. \
            The password dialog (a LUKS root) uses the images of plymouth-themes' spinner theme.
            """)

    @Option(help: "Config directory: carouseld.conf and its image directory.")
    var config: String = "/etc/carouseld"

    @Option(help: "A picture to show instead of the carousel's first (laid out by the config's look).")
    var picture: String?

    @Option(help: "Frame size WIDTHxHEIGHT (default: the first connected screen's mode, else 1920x1080).")
    var size: String?

    @Option(help: "Plymouth's theme directory; the theme goes to its carouseld/ folder.")
    var themes: String = "/usr/share/plymouth/themes"

    @Flag(help: "Only write the theme; do not run plymouth-set-default-theme.")
    var themeOnly = false

    func validate() throws {
        if let size, DisplayMode(parsing: size) == nil {
            throw ValidationError("--size \(size) is not WIDTHxHEIGHT (1...16384 each), e.g. 1920x1080")
        }
    }

    func run() throws {
        let loaded: LoadedConfig
        do { loaded = try ConfigLoader.load(directory: config) } catch {
            for problem in error.problems { Log.error(problem) }
            throw ExitCode.failure
        }
        let (width, height) = frameSize()
        let items = picture.map { [$0] } ?? OfflineRenderer.usablePaths(loaded.playlist.map(\.path),
                                                                         maxPixels: loaded.shell.media.maxImagePixels,
                                                                         source: loaded.mediaDirectory)
        guard !items.isEmpty else {
            Log.error("\(loaded.directory): no picture to make a splash of")
            throw ExitCode.failure
        }
        // The frame lives in the renderer's memory: the renderer must outlive the write.
        let renderer = try OfflineRenderer(config: loaded.config, shell: loaded.shell, paths: items, width: width, height: height)
        let theme = PlymouthTheme(directory: "\(themes)/\(PlymouthTheme.name)", stockImages: "\(themes)/spinner")
        do throws(PlymouthTheme.Failure) {
            try withExtendedLifetime(renderer) { () throws(PlymouthTheme.Failure) in
                try theme.write(renderer.frame(at: 0), background: loaded.config.background)
            }
        } catch {
            Log.error("\(error)")
            throw ExitCode.failure
        }
        print("\(theme.directory): \(width)x\(height) from \(picture ?? "the carousel's first frame")")
        guard !themeOnly else { return }
        let tool = "/usr/sbin/plymouth-set-default-theme"
        let (status, _) = try ChildProcess.run(tool, ["--rebuild-initrd", PlymouthTheme.name])
        guard status == 0 else {
            Log.error("\(tool) --rebuild-initrd \(PlymouthTheme.name) exited with \(status)")
            throw ExitCode.failure
        }
        print("plymouth's default theme is now \(PlymouthTheme.name), in the initramfs")
    }

    /// --size, else the first connected screen's mode, else 1920x1080.
    private func frameSize() -> (Int, Int) {
        if let size, let mode = DisplayMode(parsing: size) { return (mode.width, mode.height) }
        if let mode = DisplayOpener.firstScreenMode() { return (mode.width, mode.height) }
        Log.notice("no connected screen found: the splash is 1920x1080 (--size sets it)")
        return (1920, 1080)
    }
}
