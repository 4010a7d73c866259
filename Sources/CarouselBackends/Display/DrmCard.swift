import CarouselCore
import CDRM
import Glibc

/// An open DRM card node (/dev/dri/cardN) with the client capabilities carouseld needs;
/// the descriptor is closed when the card is released.
package final class DrmCard {
    package let path: String
    private let node: OwnedDescriptor
    /// For libdrm calls, which borrow it.
    package var fd: Int32 { node.rawValue }
    /// The screen each CRTC of this card is given to (several screens share one card: one
    /// master); a flip event names its CRTC, and finds its screen here.
    private var screensByCrtc: [UInt32: Weak<DrmOutput>] = [:]
    /// Screens of this card attached to the loop; its fd is watched while there is one.
    private var attachedScreens = 0
    private var eventsWatch: Watch?

    /// Overlay planes each CRTC shows cards on: a plane many CRTCs may use serves one of them.
    private var planesByCrtc: [UInt32: Set<UInt32>] = [:]

    package var claimedCrtcs: Set<UInt32> { Set(screensByCrtc.filter { $0.value.value != nil }.keys) }
    package func claim(crtc: UInt32, for screen: DrmOutput) { screensByCrtc[crtc] = Weak(screen) }
    package func release(crtc: UInt32) { screensByCrtc[crtc] = nil; planesByCrtc[crtc] = nil }
    /// The overlays held by the CRTCs of other screens still open.
    package var claimedPlanes: Set<UInt32> {
        planesByCrtc.filter { claimedCrtcs.contains($0.key) }.values.reduce(into: []) { $0.formUnion($1) }
    }
    package func claim(planes: [UInt32], for crtc: UInt32) { planesByCrtc[crtc] = Set(planes) }

    /// Watches the card's fd for page-flip events; every screen of the card calls it, the
    /// first one registers it. Each flip's user data names the screen it belongs to.
    package func attachScreen(to loop: EventLoop) throws {
        attachedScreens += 1
        guard attachedScreens == 1 else { return }
        eventsWatch = try loop.watch(fd, name: "DRM events", owner: self) { $0.handleEvents() }
    }

    package func detachScreen() {
        attachedScreens = max(0, attachedScreens - 1)
        if attachedScreens == 0 { eventsWatch = nil }
    }

    /// Reads the queued page-flip events and hands each to the screen of its CRTC.
    package func handleEvents() {
        for (screen, time) in readFlips() { screen.flipCompleted(time: time) }
    }

    /// Reads the queued page-flip events: the screen each belongs to (found by CRTC id, as
    /// wlroots' `page_flip_handler2` does) and when it became visible. Nothing is called from
    /// inside libdrm's callback; events of CRTCs no screen holds any more are dropped.
    package func readFlips() -> [(screen: DrmOutput, time: Double)] {
        var context = drmEventContext()
        context.version = 3
        context.page_flip_handler2 = { _, _, seconds, microseconds, crtc, _ in
            // Flip timestamps are CLOCK_MONOTONIC; a driver that gives none gets "now".
            let time = seconds == 0 ? MonotonicClock.now() : Double(seconds) + Double(microseconds) / 1e6
            DrmCard.readingFlips.append((crtc, time))
        }
        Self.readingFlips = []
        if drmHandleEvent(fd, &context) != 0 && errno != EAGAIN && errno != EINTR {
            Log.warning("\(path): reading DRM events: \(SystemError(call: "drmHandleEvent", errno: errno))")
        }
        let flips = Self.readingFlips
        Self.readingFlips = []
        return flips.compactMap { crtc, time in screensByCrtc[crtc]?.value.map { ($0, time) } }
    }

    /// The events `drmHandleEvent` is reading now: its C callback cannot capture. Only the
    /// event loop's thread reads DRM events.
    nonisolated(unsafe) private static var readingFlips: [(crtc: UInt32, time: Double)] = []

    /// Opens `path` read-write. Errors name the fix: group video, DRM master, no KMS.
    /// `master: false` is for listing only (`carouseld outputs` works beside a running display).
    package init(path: String, master: Bool = true) throws(DisplayError) {
        let node: OwnedDescriptor
        do {
            node = try OwnedDescriptor("open") { open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK) }
        } catch {
            let err = (error as? SystemError)?.errno.rawValue ?? EIO
            switch err {
            case EACCES, EPERM:
                // At boot the kernel's node is root's alone until udev gives it to group video:
                // a display still being set up (udev's event will come), not a wrong setup.
                if Self.isNotSetUpYet(path) { throw .noDevice("\(path) is not set up by udev yet (root only)") }
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

    private static func isNotSetUpYet(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && isNotSetUpYet(owner: st.st_uid, mode: st.st_mode)
    }

    /// A node owned by root with no access for group or others: as the kernel made it, or halfway
    /// through udev's setup, which gives the group (root:video 0600) before the mode (0660). A
    /// daemon that opened it then took the group for the whole setup, and exited.
    package static func isNotSetUpYet(owner: uid_t, mode: mode_t) -> Bool {
        owner == 0 && mode & 0o066 == 0
    }

    /// Asks for atomic modesetting; false when the driver (or kernel) does not offer it.
    package func enableAtomic() -> Bool {
        drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
    }

    /// KMS drivers over a framebuffer the firmware left behind; the real GPU driver replaces them.
    package static let firmwareDrivers: Set<String> = ["simpledrm", "efidrm", "vesadrm", "ofdrm"]

    /// How a driver pans the strip (`PanBuffers`), for those checked on a real kernel: bochs-drm
    /// scans out a framebuffer from its offset, with the pitch it was given, and ignores SRC_X;
    /// virtio-gpu ignores the offset (its host copies from the buffer's start) and passes the
    /// primary plane's source rectangle on (atomic only). Others compose.
    package static let panMethods: [String: PanBuffers.Method] = ["bochs-drm": .framebufferOffset, "virtio_gpu": .sourceX]

    /// The driver name, e.g. "bochs-drm".
    package var driverName: String {
        guard let version = DrmObjects.version(fd) else { return "unknown" }
        return version.pointer.pointee.name.map { String(cString: $0) } ?? "unknown"
    }

    /// Primary (card) nodes of every DRM device, found with drmGetDevices2 (which reads sysfs,
    /// so it works before udev has created nodes for render-only devices).
    package static func discover() -> [String] {
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
