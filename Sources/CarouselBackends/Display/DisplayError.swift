import CarouselCore
/// Why the display could not be used, worded so the message says what to do.
package enum DisplayError: Error, Equatable, CustomStringConvertible {
    case noDevice(String)
    case permissionDenied(path: String)
    case notMaster(path: String)
    case connectorNotFound(name: String, available: [String])
    case modeNotOffered(mode: String, connector: String, available: [String])
    case unsupported(String)
    case system(call: String, errno: Int32, path: String)
    /// The Wayland compositor is missing, went away or refused us.
    case compositor(String)

    package var description: String {
        switch self {
        case .noDevice(let detail):
            return "no DRM device (no /dev/dri/card*): \(detail)"
        case .permissionDenied(let path):
            return "permission denied on \(path) (add the user to group video)"
        case .notMaster(let path):
            return "another process holds DRM master on \(path) "
                + "(stop the display manager or other program that drives the screen)"
        case .connectorNotFound(let name, let available):
            return "connector \(name) not found; connectors: "
                + (available.isEmpty ? "none" : available.joined(separator: ", "))
        case .modeNotOffered(let mode, let connector, let available):
            return "mode \(mode) not offered by connector \(connector); available: "
                + (available.isEmpty ? "none" : available.joined(separator: ", "))
        case .unsupported(let what):
            return what
        case .system(let call, let errno, let path):
            return "\(path): \(SystemError(call: call, errno: errno))"
        case .compositor(let what):
            return "wayland: \(what)"
        }
    }
}
