import FoundationEssentials
import Glibc

/// What the kernel command line lets the console draw on the screen between the firmware and
/// the first frame (issue 46): kernel messages, the blinking cursor, the boot logo, plymouth
/// falling back to text. `carouseld check` warns about each with its fix; docs/boot-splash.md
/// gives the whole line for Debian's GRUB and for Raspberry Pi OS.
enum BootConsole {
    /// The warnings for `commandLine` (/proc/cmdline). `plymouth`: whether plymouth is installed.
    static func warnings(commandLine: String, plymouth: Bool) -> [String] {
        let words = commandLine.split(whereSeparator: \.isWhitespace).map(String.init)
        func value(_ key: String) -> String? {
            words.last { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        let consoles = words.filter { $0.hasPrefix("console=") }.map { String($0.dropFirst(8)) }
        // The kernel writes to the screen's console unless every console= names another device.
        let serial = { (console: String) in ["ttyS", "ttyAMA", "serial"].contains { console.hasPrefix($0) } }
        let onScreen = consoles.isEmpty || consoles.contains { $0.hasPrefix("tty") && !serial($0) }
        var found: [String] = []
        let level = value("loglevel").flatMap { Int($0) }
        if onScreen, level.map({ $0 > 3 }) ?? !words.contains("quiet") {
            found.append("kernel messages are printed on the screen during boot: add 'quiet loglevel=3' to the kernel command line")
        }
        if onScreen, value("vt.global_cursor_default") != "0" {
            found.append("the console's cursor blinks on the screen until the first frame: add 'vt.global_cursor_default=0'")
        }
        if onScreen, !words.contains("logo.nologo"), value("fullscreen_logo") == nil {
            found.append("the kernel's boot logo is drawn on the screen: add 'logo.nologo' (on a Raspberry Pi, or 'fullscreen_logo=1' with a logo of your own)")
        }
        if plymouth, words.contains("splash"), consoles.contains(where: serial),
           !words.contains("plymouth.ignore-serial-consoles") {
            found.append("plymouth shows text, not its splash, while a serial console is named: add 'plymouth.ignore-serial-consoles'")
        }
        if plymouth, !words.contains("splash") {
            found.append("plymouth is installed but 'splash' is not on the kernel command line: the console shows until the first frame")
        }
        return found.map { "kernel command line: \($0) (docs/boot-splash.md)" }
    }

    /// The running kernel's command line, and whether plymouth is installed.
    static func current() -> [String] {
        guard let line = try? String(contentsOfFile: "/proc/cmdline", encoding: .utf8) else { return [] }
        let plymouth = ["/usr/bin/plymouth", "/bin/plymouth"].contains { (path: String) in access(path, X_OK) == 0 }
        return warnings(commandLine: line, plymouth: plymouth)
    }
}
