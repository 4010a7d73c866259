import CDRM
import Glibc

/// An open DRM card node (/dev/dri/cardN) with the client capabilities carouseld needs;
/// the descriptor is closed when the card is released.
final class DrmCard {
    let path: String
    private let node: OwnedDescriptor
    /// For libdrm calls, which borrow it.
    var fd: Int32 { node.rawValue }
    /// CRTCs given to a screen of this card (several screens share one card: one master).
    private(set) var claimedCrtcs: Set<UInt32> = []
    /// Screens of this card attached to the loop; its fd is watched while there is one.
    private var attachedScreens = 0
    private var eventsWatch: Watch?

    /// Cards opened as master, shared by every screen on them: a second open of a card cannot
    /// become DRM master while the first is open. Held weakly: a card closes with its last screen.
    /// Only the event loop's thread opens displays.
    nonisolated(unsafe) private static var shared: [String: WeakCard] = [:]
    private struct WeakCard { weak var card: DrmCard? }

    /// The open master card at `path`, or a newly opened one.
    static func sharedCard(path: String) throws(DisplayError) -> DrmCard {
        if let card = shared[path]?.card { return card }
        let card = try DrmCard(path: path)
        shared[path] = WeakCard(card: card)
        return card
    }

    func claim(crtc: UInt32) { claimedCrtcs.insert(crtc) }
    func release(crtc: UInt32) { claimedCrtcs.remove(crtc) }

    /// Watches the card's fd for page-flip events; every screen of the card calls it, the
    /// first one registers it. Each flip's user data names the screen it belongs to.
    func attachScreen(to loop: EventLoop) throws {
        attachedScreens += 1
        guard attachedScreens == 1 else { return }
        eventsWatch = try loop.watch(fd, name: "DRM events") { [unowned self] in handleEvents() }
    }

    func detachScreen() {
        attachedScreens = max(0, attachedScreens - 1)
        if attachedScreens == 0 { eventsWatch = nil }
    }

    /// Reads the pending page-flip events and hands each to its screen (`DrmOutput`).
    func handleEvents() {
        var context = drmEventContext()
        context.version = 2
        context.page_flip_handler = { _, _, seconds, microseconds, userData in
            guard let userData else { return }
            let output = Unmanaged<DrmOutput>.fromOpaque(userData).takeUnretainedValue()
            // Flip timestamps are CLOCK_MONOTONIC; a driver that gives none gets "now".
            let time = seconds == 0 ? MonotonicClock.now() : Double(seconds) + Double(microseconds) / 1e6
            output.flipCompleted(time: time)
        }
        drmHandleEvent(fd, &context)
    }

    /// Opens `path` read-write. Errors name the fix: group video, DRM master, no KMS.
    /// `master: false` is for listing only (`carouseld outputs` works beside a running display).
    init(path: String, master: Bool = true) throws(DisplayError) {
        let node: OwnedDescriptor
        do {
            node = try OwnedDescriptor("open") { open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK) }
        } catch {
            let err = (error as? SystemError)?.errno.rawValue ?? EIO
            switch err {
            case EACCES, EPERM:
                // At boot the kernel's node is root's alone until udev gives it to group video:
                // a display still being set up (udev's event will come), not a wrong setup.
                if Self.isRootOnly(path) { throw .noDevice("\(path) is not set up by udev yet (root only)") }
                throw .permissionDenied(path: path)
            case ENOENT, ENODEV, ENXIO: throw .noDevice("\(path): \(SystemError(call: "open", errno: err))")
            default: throw .system(call: "open", errno: err, path: path)
            }
        }
        // Opening a card makes us master only when nobody else is; without it no modeset works.
        // (A throw below closes the node: `node` is dropped with it.)
        let fd = node.rawValue
        if master && drmIsMaster(fd) == 0 && drmSetMaster(fd) != 0 {
            throw .notMaster(path: path)
        }
        var dumb: UInt64 = 0
        guard drmGetCap(fd, UInt64(DRM_CAP_DUMB_BUFFER), &dumb) == 0, dumb != 0 else {
            throw .unsupported("\(path) has no dumb buffers (not a KMS display device)")
        }
        // Universal planes expose the primary plane (for atomic and the rotation property).
        _ = drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1)
        self.path = path
        self.node = node
    }

    /// A node owned by root and group root, with no access for group or others.
    private static func isRootOnly(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && st.st_uid == 0 && st.st_gid == 0 && st.st_mode & 0o066 == 0
    }

    /// Asks for atomic modesetting; false when the driver (or kernel) does not offer it.
    func enableAtomic() -> Bool {
        drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
    }

    /// KMS drivers over a framebuffer the firmware left behind; the real GPU driver replaces them.
    static let firmwareDrivers: Set<String> = ["simpledrm", "efidrm", "vesadrm", "ofdrm"]

    /// The driver name, e.g. "bochs-drm".
    var driverName: String {
        guard let version = DrmObjects.version(fd) else { return "unknown" }
        return version.pointer.pointee.name.map { String(cString: $0) } ?? "unknown"
    }

    /// Primary (card) nodes of every DRM device, found with drmGetDevices2 (which reads sysfs,
    /// so it works before udev has created nodes for render-only devices).
    static func discover() -> [String] {
        let count = drmGetDevices2(0, nil, 0)
        guard count > 0 else { return [] }
        var devices = [drmDevicePtr?](repeating: nil, count: Int(count))
        let found = drmGetDevices2(0, &devices, count)
        guard found > 0 else { return [] }
        defer { drmFreeDevices(&devices, found) }
        var paths: [String] = []
        for case let device? in devices.prefix(Int(found))
        where device.pointee.available_nodes & (1 << DRM_NODE_PRIMARY) != 0 {
            if let node = device.pointee.nodes[Int(DRM_NODE_PRIMARY)] { paths.append(String(cString: node)) }
        }
        return paths.sorted()
    }
}
