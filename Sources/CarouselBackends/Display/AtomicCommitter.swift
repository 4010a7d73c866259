import CarouselCore
import CarouselPixels
import CDRM
import Glibc

/// Atomic KMS: one commit sets connector, CRTC and primary plane together; frames are
/// non-blocking commits with a flip event. Rotation uses the plane's "rotation" property.
/// Every commit, tested or applied, goes through `commit`: a new mode blob is kept only once a
/// real commit with it succeeded, and destroyed otherwise (wlroots' commit_blob/rollback_blob),
/// so a refused or test-only commit never takes the blob the CRTC is using.
package final class AtomicCommitter: ModesetCommitter {
    package let kind = "atomic"
    private let card: DrmCard
    private var fd: Int32 { card.fd }
    private let planeID: UInt32
    private let plane: DrmProperties
    /// Property ids, looked up once: a frame's commit names them without any search.
    private let ids: PropertyIDs
    private var modeBlob: UInt32 = 0
    private var rotated = false
    /// The CRTC's overlay planes, when cards may go on them (`DrmScreen` sets them).
    package var overlays: OverlayPlanes?
    /// `ctl writeback`: frames read back while it lasts.
    package var writeback: WritebackCapture?
    /// How many of `overlays` (from the bottom) the last applied commit lit.
    private var litOverlays = 0
    /// What each overlay shows since the last applied commit (nil: not known, every property
    /// is set), and what the request being built asks of each: a frame names only the changes.
    private var shownOverlays: [OverlaySettings?] = []
    private var requestedOverlays: [OverlaySettings?] = []
    /// The cards the driver last accepted on the overlays, by what a driver may refuse (see
    /// `flip(_:buffer:cards:)`).
    private var acceptedCards: [PlaneUse]?

    /// What of a card on a plane a driver checks beyond its place: its framebuffer, whether it
    /// is scaled, its opacity.
    private struct PlaneUse: Equatable {
        let framebuffer: UInt32
        let alpha: Double
        let scaled: Bool
    }

    private struct PropertyIDs {
        package let fb, crtc, srcX, srcY, srcW, srcH, crtcX, crtcY, crtcW, crtcH: UInt32  // the plane's
        package let mode, active: UInt32                                                 // the CRTC's
        package let connectorCrtc: UInt32                                                // the connector's
        package let rotation: UInt32?
    }

    /// Finds the primary plane of `target`'s CRTC and the property ids of all three objects.
    /// Throws when the card lacks something atomic needs; the caller then falls back to legacy.
    package init(card: DrmCard, target: ScanoutTarget) throws(DisplayError) {
        self.card = card
        let fd = card.fd
        guard let planeResources = DrmObjects.planeResources(fd) else { throw .unsupported("no plane resources") }
        var primary: (UInt32, DrmProperties)?
        // Read through the handle each time: the plane list lives exactly as long as it does.
        for i in 0..<Int(planeResources.pointer.pointee.count_planes) where primary == nil {
            let id = planeResources.pointer.pointee.planes[i]
            guard let possible = DrmObjects.plane(fd, id)?.pointer.pointee.possible_crtcs else { continue }
            let usable = possible & (1 << UInt32(target.crtcIndex)) != 0
            let props = DrmProperties(fd: fd, objectID: id, objectType: UInt32(DRM_MODE_OBJECT_PLANE))
            if usable, props["type"]?.value == UInt64(DRM_PLANE_TYPE_PRIMARY) { primary = (id, props) }
        }
        guard let primary else { throw .unsupported("no primary plane for CRTC \(target.crtcID)") }
        (planeID, plane) = primary
        let crtc = DrmProperties(fd: fd, objectID: target.crtcID, objectType: UInt32(DRM_MODE_OBJECT_CRTC))
        let connector = DrmProperties(fd: fd, objectID: target.connectorID, objectType: UInt32(DRM_MODE_OBJECT_CONNECTOR))
        let plane = primary.1
        func onPlane(_ name: String) throws(DisplayError) -> UInt32 { try plane.id(name, on: "primary plane") }
        ids = PropertyIDs(
            fb: try onPlane("FB_ID"), crtc: try onPlane("CRTC_ID"),
            srcX: try onPlane("SRC_X"), srcY: try onPlane("SRC_Y"), srcW: try onPlane("SRC_W"), srcH: try onPlane("SRC_H"),
            crtcX: try onPlane("CRTC_X"), crtcY: try onPlane("CRTC_Y"), crtcW: try onPlane("CRTC_W"), crtcH: try onPlane("CRTC_H"),
            mode: try crtc.id("MODE_ID", on: "CRTC"), active: try crtc.id("ACTIVE", on: "CRTC"),
            connectorCrtc: try connector.id("CRTC_ID", on: "connector \(target.connectorName)"),
            rotation: plane["rotation"]?.id)
    }

    /// The primary plane's zpos, where it has one: overlays stack above it.
    package var primaryZpos: UInt64? { plane["zpos"]?.value }

    deinit { if modeBlob != 0 { drmModeDestroyPropertyBlob(fd, modeBlob) } }

    /// One request for the whole state: a modeset with the connector, CRTC and primary plane
    /// when lighting, ACTIVE = 0 when going dark, the primary's buffer when it has a new one,
    /// and the overlays (cards lit before and unused now go dark in the same commit, so nothing
    /// shows twice or flickers when frames switch between planes and composition).
    ///
    /// A test of a new set of cards (one came or went, or a card's scale or opacity changed) is
    /// a TEST_ONLY commit. The frames that only move the same cards skip it: the real commit
    /// checks the same way and, when refused (EINVAL, ERANGE), changes nothing either.
    package func commit(_ state: KmsState, test: Bool) throws(DisplayError) -> KmsOutcome {
        let uses = state.cards.map { card in
            PlaneUse(framebuffer: card.buffer.framebufferID, alpha: card.placed.alpha, scaled: card.placed.isScaled)
        }
        // Asked every frame that moves cards: the same set as accepted last needs no request built.
        if test, state.lighting == nil, state.active, !uses.isEmpty, uses == acceptedCards { return .accepted(evented: true) }
        guard var request = AtomicRequest() else { throw .unsupported("drmModeAtomicAlloc failed") }
        let target = state.target
        var blob: UInt32 = 0
        var flags: UInt32 = 0
        // A modeset or going dark starts the overlays' books afresh: whatever the planes held
        // before (the console's, another master's) is set again in full.
        if state.lighting != nil || !state.active { shownOverlays = [] }
        if !state.active {
            request.add(target.crtcID, ids.active, 0)
            flags = cdrm_mode_atomic_allow_modeset()
        } else {
            if let degrees = state.lighting, let buffer = state.primary {
                guard degrees == 0 || rotationValue(degrees) != nil else { return .refused(errno: EINVAL) }
                blob = try fill(&request, target: target, buffer: buffer, rotation: rotationValue(degrees),
                                modeset: !state.keepsMode)
                flags = state.keepsMode ? 0 : cdrm_mode_atomic_allow_modeset()
            } else if let buffer = state.primary {
                request.add(planeID, ids.fb, UInt64(buffer.framebufferID))
                // A panned view by SRC_X sets its column; any other buffer sets it back to 0.
                request.add(planeID, ids.srcX, UInt64(buffer.sourceX) << 16)
            }
            addOverlays(&request, state.cards, target: target)
            if !test { flags |= cdrm_mode_atomic_nonblock() | cdrm_mode_page_flip_event() }
        }
        if let failure = request.failure {
            if blob != 0 { drmModeDestroyPropertyBlob(fd, blob) }
            throw .system(call: "drmModeAtomicAddProperty", errno: failure, path: card.path)
        }
        if test {
            let ok = commit(request.pointer, blob: blob, flags: flags | cdrm_mode_atomic_test_only())
            if ok, !uses.isEmpty { acceptedCards = uses }
            return ok ? .accepted(evented: true) : .refused(errno: Glibc.errno)
        }
        // A modeset (lighting, or going dark) takes no writeback job: that joins frames only.
        let applied = state.lighting == nil && state.active ? commitFrame(request.pointer, flags: flags)
            : commit(request.pointer, blob: blob, flags: flags)
        guard applied else {
            let error = Glibc.errno
            acceptedCards = nil
            shownOverlays = []
            // Refused by its check (a card placed where the planes cannot show it): composed.
            if !uses.isEmpty, error == EINVAL || error == ERANGE { return .refused(errno: error) }
            // A panned view the driver cannot scan out (no room left in its memory to pin the
            // window, say): composed instead, like refused cards.
            if state.panned { return .refused(errno: error) }
            if !state.active { return .refused(errno: error) }
            let what = state.lighting != nil ? (state.keepsMode ? "atomic first frame in the mode on screen" : "atomic modeset")
                + " \(target.mode.label)"
                : uses.isEmpty ? "atomic page flip" : "atomic page flip with \(uses.count) planes"
            throw .system(call: what, errno: error, path: target.connectorName)
        }
        if !state.active { litOverlays = 0; return .accepted(evented: false) }
        if let degrees = state.lighting { rotated = degrees != 0 }
        acceptedCards = uses.isEmpty ? acceptedCards : uses
        litOverlays = uses.count
        swap(&shownOverlays, &requestedOverlays)
        return .accepted(evented: true)
    }

    package func restore(_ saved: SavedCrtc) -> Bool {
        // The legacy SetCrtc below leaves overlays as they are: they would cover the console.
        if litOverlays > 0, var request = AtomicRequest() {
            addOverlays(&request, [], target: ScanoutTarget?.none)
            if request.failure == nil, commit(request.pointer, blob: 0, flags: 0) { litOverlays = 0 }
        }
        shownOverlays = []
        // fbcon draws unrotated: put the plane's rotation back before handing over the CRTC.
        if rotated, let rotation = ids.rotation, let zero = rotationValue(0) {
            _ = drmModeObjectSetProperty(fd, planeID, UInt32(DRM_MODE_OBJECT_PLANE), rotation, zero)
        }
        return saved.restore(fd: fd)
    }

    /// Applies a frame's request, with a writeback job while `ctl writeback` lasts.
    private func commitFrame(_ request: drmModeAtomicReqPtr, flags: UInt32) -> Bool {
        let job = writeback?.attach(request) ?? false
        let ok = commit(request, blob: 0, flags: flags)
        let error = Glibc.errno
        if job { writeback?.committed(ok) }
        Glibc.errno = error
        return ok
    }

    /// Tests or applies one request. `blob`: a mode blob made for it (0: none), kept as the
    /// CRTC's only when a real commit succeeded (the old one is destroyed then), else destroyed.
    /// errno is the commit's on return.
    private func commit(_ request: drmModeAtomicReqPtr, blob: UInt32, flags: UInt32) -> Bool {
        let ok = drmModeAtomicCommit(fd, request, flags, nil) == 0
        let error = Glibc.errno
        let applied = ok && flags & cdrm_mode_atomic_test_only() == 0
        if blob != 0 {
            if applied {
                if modeBlob != 0 { drmModeDestroyPropertyBlob(fd, modeBlob) }
                modeBlob = blob
            } else {
                drmModeDestroyPropertyBlob(fd, blob)
            }
        }
        Glibc.errno = error
        return ok
    }

    /// DRM_MODE_ROTATE_* for `degrees` if the plane lists it; 0 degrees needs no property.
    private func rotationValue(_ degrees: Int) -> UInt64? {
        guard let prop = plane["rotation"], let bit = prop.enums["rotate-\(degrees)"] else { return nil }
        return 1 << bit
    }

    /// Puts the plane (and with `modeset` the connector and CRTC) into `req`. Returns the mode
    /// blob it made, for `commit` to keep or destroy; 0 without `modeset`.
    private func fill(_ req: inout AtomicRequest, target: ScanoutTarget, buffer: any ScanoutBuffer,
                      rotation: UInt64?, modeset: Bool) throws(DisplayError) -> UInt32 {
        var blob: UInt32 = 0
        if modeset {
            var mode = target.mode.raw
            guard drmModeCreatePropertyBlob(fd, &mode, MemoryLayout<drmModeModeInfo>.size, &blob) == 0 else {
                throw .system(call: "mode blob", errno: Glibc.errno, path: target.connectorName)
            }
            req.add(target.connectorID, ids.connectorCrtc, UInt64(target.crtcID))
            req.add(target.crtcID, ids.mode, UInt64(blob))
            req.add(target.crtcID, ids.active, 1)
        }
        req.add(planeID, ids.fb, UInt64(buffer.framebufferID))
        req.add(planeID, ids.crtc, UInt64(target.crtcID))
        // Source rectangle in 16.16 fixed point, in buffer coordinates (before rotation).
        req.add(planeID, ids.srcX, UInt64(buffer.sourceX) << 16); req.add(planeID, ids.srcY, 0)
        req.add(planeID, ids.srcW, UInt64(buffer.width) << 16); req.add(planeID, ids.srcH, UInt64(buffer.height) << 16)
        req.add(planeID, ids.crtcX, 0); req.add(planeID, ids.crtcY, 0)
        req.add(planeID, ids.crtcW, UInt64(target.mode.width)); req.add(planeID, ids.crtcH, UInt64(target.mode.height))
        if let rotation, let prop = ids.rotation { req.add(planeID, prop, rotation) }
        return blob
    }

    /// Puts `cards` on the lowest overlays and switches off the ones lit before that these
    /// leave unused, each with only what changed since the last applied commit
    /// (`OverlaySettings`; `requestedOverlays` keeps what this request asks, for that commit's
    /// books). zpos and alpha go in where the planes have them. `target` nil: switching off only.
    private func addOverlays(_ req: inout AtomicRequest, _ cards: [(placed: PlacedCard, buffer: DumbBuffer)],
                             target: ScanoutTarget?) {
        requestedOverlays.removeAll(keepingCapacity: true)
        guard let overlays else { return }
        for (i, plane) in overlays.planes.enumerated() {
            guard i < cards.count, let target else {
                if i < litOverlays { req.add(plane.id, plane.fb, 0); req.add(plane.id, plane.crtc, 0) }
                requestedOverlays.append(nil)
                continue
            }
            let settings = OverlaySettings(cards[i].placed, framebuffer: cards[i].buffer.framebufferID, crtcID: target.crtcID,
                                           zpos: plane.zpos == nil ? nil : overlays.firstZpos + UInt64(i), hasAlpha: plane.alpha != nil)
            let shown = i < shownOverlays.count ? shownOverlays[i] : nil
            settings.changes(from: shown, on: plane) { property, value in req.add(plane.id, property, value) }
            requestedOverlays.append(settings)
        }
    }
}
