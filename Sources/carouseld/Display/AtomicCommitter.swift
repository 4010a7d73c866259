import CDRM
import Glibc

/// Atomic KMS: one commit sets connector, CRTC and primary plane together; frames are
/// non-blocking commits with a flip event. Rotation uses the plane's "rotation" property.
final class AtomicCommitter: ModesetCommitter {
    let kind = "atomic"
    private let card: DrmCard
    private var fd: Int32 { card.fd }
    private let planeID: UInt32
    private let plane: DrmProperties
    private let crtc: DrmProperties
    private let connector: DrmProperties
    private var modeBlob: UInt32 = 0
    private var rotated = false

    /// Finds the primary plane of `target`'s CRTC and the property ids of all three objects.
    /// Throws when the card lacks something atomic needs; the caller then falls back to legacy.
    init(card: DrmCard, target: ScanoutTarget) throws(DisplayError) {
        self.card = card
        let fd = card.fd
        guard let planes = drmModeGetPlaneResources(fd) else { throw .unsupported("no plane resources") }
        defer { drmModeFreePlaneResources(planes) }
        var primary: (UInt32, DrmProperties)?
        for i in 0..<Int(planes.pointee.count_planes) where primary == nil {
            let id = planes.pointee.planes[i]
            guard let p = drmModeGetPlane(fd, id) else { continue }
            let usable = p.pointee.possible_crtcs & (1 << UInt32(target.crtcIndex)) != 0
            drmModeFreePlane(p)
            let props = DrmProperties(fd: fd, objectID: id, objectType: UInt32(DRM_MODE_OBJECT_PLANE))
            if usable, props["type"]?.value == UInt64(DRM_PLANE_TYPE_PRIMARY) { primary = (id, props) }
        }
        guard let primary else { throw .unsupported("no primary plane for CRTC \(target.crtcID)") }
        (planeID, plane) = primary
        crtc = DrmProperties(fd: fd, objectID: target.crtcID, objectType: UInt32(DRM_MODE_OBJECT_CRTC))
        connector = DrmProperties(fd: fd, objectID: target.connectorID, objectType: UInt32(DRM_MODE_OBJECT_CONNECTOR))
        for name in ["FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H"] {
            _ = try plane.id(name, on: "primary plane")
        }
        _ = try crtc.id("MODE_ID", on: "CRTC"); _ = try crtc.id("ACTIVE", on: "CRTC")
        _ = try connector.id("CRTC_ID", on: "connector \(target.connectorName)")
    }

    deinit { if modeBlob != 0 { drmModeDestroyPropertyBlob(fd, modeBlob) } }

    func supportsRotation(_ degrees: Int, target: ScanoutTarget, buffer: DumbBuffer) -> Bool {
        if degrees == 0 { return true }
        guard let value = rotationValue(degrees) else { return false }
        // The property can list a value the hardware refuses for this format: ask the kernel.
        guard let req = drmModeAtomicAlloc() else { return false }
        defer { drmModeAtomicFree(req) }
        guard (try? fill(req, target: target, buffer: buffer, rotation: value, modeset: true)) != nil else { return false }
        let flags = cdrm_mode_atomic_test_only() | cdrm_mode_atomic_allow_modeset()
        return drmModeAtomicCommit(fd, req, flags, nil) == 0
    }

    func modeset(_ target: ScanoutTarget, buffer: DumbBuffer, rotation: Int,
                 userData: UnsafeMutableRawPointer?) throws(DisplayError) -> Bool {
        guard let req = drmModeAtomicAlloc() else { throw .unsupported("drmModeAtomicAlloc failed") }
        defer { drmModeAtomicFree(req) }
        try fill(req, target: target, buffer: buffer, rotation: rotationValue(rotation), modeset: true)
        let flags = cdrm_mode_atomic_allow_modeset() | cdrm_mode_atomic_nonblock() | cdrm_mode_page_flip_event()
        guard drmModeAtomicCommit(fd, req, flags, userData) == 0 else {
            throw .system(call: "atomic modeset \(target.mode.label)", errno: Glibc.errno, path: target.connectorName)
        }
        rotated = rotation != 0
        return true
    }

    func flip(_ target: ScanoutTarget, buffer: DumbBuffer, userData: UnsafeMutableRawPointer?) throws(DisplayError) {
        guard let req = drmModeAtomicAlloc() else { throw .unsupported("drmModeAtomicAlloc failed") }
        defer { drmModeAtomicFree(req) }
        drmModeAtomicAddProperty(req, planeID, try plane.id("FB_ID", on: "plane"), UInt64(buffer.framebufferID))
        let flags = cdrm_mode_atomic_nonblock() | cdrm_mode_page_flip_event()
        guard drmModeAtomicCommit(fd, req, flags, userData) == 0 else {
            throw .system(call: "atomic page flip", errno: Glibc.errno, path: target.connectorName)
        }
    }

    func restore(_ saved: SavedCrtc) -> Bool {
        // fbcon draws unrotated: put the plane's rotation back before handing over the CRTC.
        if rotated, let rotation = plane["rotation"], let zero = rotationValue(0) {
            _ = drmModeObjectSetProperty(fd, planeID, UInt32(DRM_MODE_OBJECT_PLANE), rotation.id, zero)
        }
        return saved.restore(fd: fd)
    }

    /// DRM_MODE_ROTATE_* for `degrees` if the plane lists it; 0 degrees needs no property.
    private func rotationValue(_ degrees: Int) -> UInt64? {
        guard let prop = plane["rotation"], let bit = prop.enums["rotate-\(degrees)"] else { return nil }
        return 1 << bit
    }

    private func fill(_ req: drmModeAtomicReqPtr, target: ScanoutTarget, buffer: DumbBuffer,
                      rotation: UInt64?, modeset: Bool) throws(DisplayError) {
        if modeset {
            var mode = target.mode.raw
            var blob: UInt32 = 0
            guard drmModeCreatePropertyBlob(fd, &mode, MemoryLayout<drmModeModeInfo>.size, &blob) == 0 else {
                throw .system(call: "mode blob", errno: Glibc.errno, path: target.connectorName)
            }
            if modeBlob != 0 { drmModeDestroyPropertyBlob(fd, modeBlob) }
            modeBlob = blob
            drmModeAtomicAddProperty(req, target.connectorID, try connector.id("CRTC_ID", on: "connector"), UInt64(target.crtcID))
            drmModeAtomicAddProperty(req, target.crtcID, try crtc.id("MODE_ID", on: "CRTC"), UInt64(blob))
            drmModeAtomicAddProperty(req, target.crtcID, try crtc.id("ACTIVE", on: "CRTC"), 1)
        }
        func p(_ name: String, _ value: UInt64) throws(DisplayError) {
            drmModeAtomicAddProperty(req, planeID, try plane.id(name, on: "plane"), value)
        }
        try p("FB_ID", UInt64(buffer.framebufferID))
        try p("CRTC_ID", UInt64(target.crtcID))
        // Source rectangle in 16.16 fixed point, in buffer coordinates (before rotation).
        try p("SRC_X", 0); try p("SRC_Y", 0)
        try p("SRC_W", UInt64(buffer.width) << 16); try p("SRC_H", UInt64(buffer.height) << 16)
        try p("CRTC_X", 0); try p("CRTC_Y", 0)
        try p("CRTC_W", UInt64(target.mode.width)); try p("CRTC_H", UInt64(target.mode.height))
        if let rotation, let prop = plane["rotation"] {
            drmModeAtomicAddProperty(req, planeID, prop.id, rotation)
        }
    }
}
