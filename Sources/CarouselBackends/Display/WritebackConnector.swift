import CarouselCore
import CDRM
import Glibc

/// A writeback connector joined to a screen's CRTC for `ctl writeback`: found, routed, given
/// writeback jobs, and given back.
final class WritebackConnector {
    private let card: DrmCard
    private let connectorID: UInt32
    private let ids: (fb: UInt32, fence: UInt32, crtc: UInt32)
    /// The screen's connector, taken off the CRTC for the capture (see `init`).
    private let moved: (connector: UInt32, property: UInt32, crtc: UInt32)?

    /// Finds a writeback connector `target`'s CRTC can feed and joins it to the CRTC (a
    /// blocking modeset commit, made at rest). Throws saying why there is none.
    init(card: DrmCard, target: ScanoutTarget) throws(DisplayError) {
        let fd = card.fd
        guard drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_WRITEBACK_CONNECTORS), 1) == 0 else {
            throw .unsupported("\(card.path) offers no writeback connectors (DRM_CLIENT_CAP_WRITEBACK_CONNECTORS)")
        }
        let resources = try DrmResources(fd: fd)
        var found: (UInt32, DrmProperties)?
        for connector in resources.connectors where connector.name.hasPrefix("Writeback") && found == nil {
            let feeds = connector.encoderIDs.contains { id in
                (DrmObjects.encoder(fd, id)?.pointer.pointee.possible_crtcs ?? 0) & (1 << UInt32(target.crtcIndex)) != 0
            }
            if feeds { found = (connector.id, DrmProperties(fd: fd, objectID: connector.id, objectType: UInt32(DRM_MODE_OBJECT_CONNECTOR))) }
        }
        guard let (connectorID, props) = found else {
            throw .unsupported("\(card.path): no writeback connector can read back CRTC \(target.crtcID)")
        }
        let ids = (fb: try props.id("WRITEBACK_FB_ID", on: "writeback connector"),
                   fence: try props.id("WRITEBACK_OUT_FENCE_PTR", on: "writeback connector"),
                   crtc: try props.id("CRTC_ID", on: "writeback connector"))
        // The writeback connector joins the screen's on the CRTC. A driver whose encoders cannot
        // be cloned (vkms in Linux 6.1: each encoder's possible_clones is itself) refuses that:
        // the CRTC then feeds the writeback connector alone while the capture lasts, and the
        // screen's connector shows nothing meanwhile.
        let screenCrtc = (DrmProperties(fd: fd, objectID: target.connectorID, objectType: UInt32(DRM_MODE_OBJECT_CONNECTOR))["CRTC_ID"]?.id)
        var moved: (connector: UInt32, property: UInt32, crtc: UInt32)?
        if !Self.route(fd, [(connectorID, ids.crtc, target.crtcID)]) {
            guard Glibc.errno == EINVAL, let screenCrtc,
                  Self.route(fd, [(connectorID, ids.crtc, target.crtcID), (target.connectorID, screenCrtc, 0)]) else {
                throw .system(call: "joining the writeback connector to CRTC \(target.crtcID)", errno: Glibc.errno, path: card.path)
            }
            moved = (target.connectorID, screenCrtc, target.crtcID)
            Log.notice("\(target.connectorName): the driver cannot clone the CRTC to writeback; "
                       + "the CRTC feeds the writeback connector alone until the capture ends")
        }
        self.card = card; self.connectorID = connectorID; self.ids = ids; self.moved = moved
    }

    /// Adds a job writing the frame into `buffer` to a commit about to be made; the kernel puts
    /// the job's out-fence at `fence` when the commit is made.
    func addJob(to request: drmModeAtomicReqPtr, buffer: DumbBuffer, fence: UnsafeMutablePointer<Int32>) -> Bool {
        fence.pointee = -1
        return drmModeAtomicAddProperty(request, connectorID, ids.fb, UInt64(buffer.framebufferID)) >= 0
            && drmModeAtomicAddProperty(request, connectorID, ids.fence, UInt64(UInt(bitPattern: fence))) >= 0
    }

    /// Gives the CRTC back to the screen's connector alone (a blocking modeset, after a flip).
    func giveBack() {
        var routes = [(connectorID, ids.crtc, UInt32(0))]
        if let moved { routes.append((moved.connector, moved.property, moved.crtc)) }
        if !Self.route(card.fd, routes) {
            Log.warning("writeback: giving the CRTC back: \(SystemError(call: "atomic modeset", errno: Glibc.errno))")
        }
    }

    /// One blocking modeset commit setting connectors' CRTC_ID.
    private static func route(_ fd: Int32, _ routes: [(connector: UInt32, property: UInt32, crtc: UInt32)]) -> Bool {
        guard var request = AtomicRequest() else { return false }
        for r in routes { request.add(r.connector, r.property, UInt64(r.crtc)) }
        if let failure = request.failure { Glibc.errno = failure; return false }
        return drmModeAtomicCommit(fd, request.pointer, cdrm_mode_atomic_allow_modeset(), nil) == 0
    }
}
