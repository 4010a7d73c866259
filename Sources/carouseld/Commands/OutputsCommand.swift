import ArgumentParser
import CarouselBackends
import CarouselConfig
import CarouselCore
import CDRM

/// A short drm_info: every card, its connectors with their state, and their modes. Under a
/// Wayland compositor: the compositor's outputs (xdg-output names, modes, scale).
struct OutputsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outputs",
        abstract: "List DRM devices, connectors and modes, or a Wayland compositor's outputs.")

    @Option(help: "auto (the compositor's outputs if WAYLAND_DISPLAY is set, else DRM), drm or wayland.")
    var backend: DisplayBackend = .auto

    @Option(help: "Config directory: say which connectors `run` would use, and how (mirror, span, independent).")
    var config: String?

    func run() throws {
        let plan = try config.map(screenPlan)
        do throws(DisplayError) {
            try Backends.describeOutputs(backend, use: plan.map { plan in { Self.use(of: $0, in: plan) } }).forEach { print($0) }
        } catch {
            Log.error("\(error)")
            throw ExitCode.failure
        }
    }

    /// What `run` would drive with the config in `directory` and the connectors connected now.
    private func screenPlan(_ directory: String) throws -> ScreenPlan {
        do {
            let loaded = try ConfigLoader.load(directory: directory)
            return ScreenPlan.make(shell: loaded.shell, config: loaded.config, connected: DisplayOpener.connectedConnectors())
        } catch {
            error.problems.forEach { Log.error($0) }
            throw ExitCode.failure
        }
    }

    /// "used: span 2 of 2, mode 1024x768, rotation 0", "not used", or "used if it is the first connected".
    private static func use(of connector: String, in plan: ScreenPlan) -> String {
        guard let index = plan.screens.firstIndex(where: { $0.connector == connector }) else {
            return plan.screens.first?.connector == nil ? "used if it is the first connected one" : "not used"
        }
        let settings = plan.screens[index].settings
        return "used: \(plan.role(ofScreen: index)), mode \(settings.mode ?? "preferred"), rotation \(settings.rotation)"
            + (plan.screens[index].touch.map { ", touch \"\($0)\"" } ?? "")
    }
}
