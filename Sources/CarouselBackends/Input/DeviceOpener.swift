import CarouselCore
import CInput
import Glibc

/// libinput's `open_restricted`/`close_restricted`: plain open(2) and close(2), since carouseld
/// runs without logind. A device it may not open gets one clear log line, once per device node:
/// libinput itself only mentions it at info level and otherwise skips the device silently.
package final class DeviceOpener {
    private var reported: Set<String> = []
    /// open(2); tests put a stand-in here, since root (who runs them) may open anything.
    private let systemOpen: (String, Int32) -> Int32

    package init(systemOpen: @escaping (String, Int32) -> Int32 = { Glibc.open($0, $1) }) {
        self.systemOpen = systemOpen
    }

    /// An fd, or a negative errno as libinput expects.
    package func open(path: String, flags: Int32) -> Int32 {
        do {
            return try syscall("open") { systemOpen(path, flags) }
        } catch let error as SystemError {
            if error.errno == .permissionDenied || error.errno == .notPermitted {
                if reported.insert(path).inserted {
                    Log.error("permission denied on \(path) (add the user to group input)")
                }
            } else {
                Log.warning("input: cannot open \(path): \(error)")
            }
            return -error.errno.rawValue
        } catch {
            return -EIO
        }
    }

    /// The C interface handed to libinput; `user_data` must be this object.
    package static let interface = libinput_interface(
        open_restricted: { path, flags, userData in
            guard let path, let userData else { return -EINVAL }
            let opener = Unmanaged<DeviceOpener>.fromOpaque(userData).takeUnretainedValue()
            return opener.open(path: String(cString: path), flags: flags)
        },
        close_restricted: { fd, _ in
            _ = Glibc.close(fd)
        })
}
