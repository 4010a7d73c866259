import Foundation
import PackagePlugin

/// Runs Debian's `wayland-scanner` on the protocol XML of `wayland-protocols` before every
/// build, for the CWayland target: client headers and the interface tables ("private code").
///
/// SwiftPM does not compile C that a plugin generates ("C source file generation not
/// enabled"), so the files go to the target's `generated/` directory (excluded from its
/// sources, not committed), where the target's one committed C file includes them. A file is
/// only replaced when its content changes, so a rebuild recompiles nothing.
@main
struct WaylandScanner: BuildToolPlugin {
    /// Protocol XML files, relative to /usr/share/wayland-protocols.
    static let protocols = [
        "stable/xdg-shell/xdg-shell.xml",
        "stable/presentation-time/presentation-time.xml",
        "stable/viewporter/viewporter.xml",
        "unstable/idle-inhibit/idle-inhibit-unstable-v1.xml",
        "unstable/xdg-output/xdg-output-unstable-v1.xml",
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let share = "/usr/share/wayland-protocols"
        // The package's directory, not `target.directoryURL`: that needs tools version 6.1, and
        // the arm64 build's Swift (Debian 13's 6.0.3) reads 6.0 at most.
        let generated = context.package.directoryURL.appending(path: "Sources/\(target.name)/generated").path
        // For each XML: NAME-client-protocol.h and NAME-protocol.inc, written to a temporary
        // file first and moved over the old one only when different. The temporary file is the
        // shell's own ($$): scripts/test builds two scratch paths of one checkout at once.
        var script = "set -e; command -v wayland-scanner >/dev/null || "
            + "{ echo 'wayland-scanner not found: install libwayland-dev and wayland-protocols (scripts/setup)' >&2; exit 1; }; "
            + "mkdir -p '\(generated)'; "
            + "put() { if cmp -s \"$1\" \"$2\"; then rm -f \"$1\"; else mv \"$1\" \"$2\"; fi; }; "
        for xml in Self.protocols {
            let name = URL(fileURLWithPath: xml).deletingPathExtension().lastPathComponent
            let source = "\(share)/\(xml)", out = "\(generated)/\(name)"
            script += "wayland-scanner client-header '\(source)' '\(out)'.h.$$ && put '\(out)'.h.$$ '\(out)-client-protocol.h'; "
            script += "wayland-scanner private-code '\(source)' '\(out)'.inc.$$ && put '\(out)'.inc.$$ '\(out)-protocol.inc'; "
        }
        return [.prebuildCommand(displayName: "wayland-scanner: \(Self.protocols.count) protocols",
                                 executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script],
                                 outputFilesDirectory: context.pluginWorkDirectoryURL)]
    }
}
