import CarouselCore
import CarouselPixels
import CDRM

/// The overlay planes a CRTC can show cards on (issue 24): XRGB8888 overlays the CRTC may
/// use and no other screen of the card holds, bottom to top, with the property ids a commit
/// names. Like weston's drm_plane, each keeps its ids, read once.
package struct OverlayPlanes {
    package struct Plane {
        package let id: UInt32
        package let fb, crtc, srcX, srcY, srcW, srcH, crtcX, crtcY, crtcW, crtcH: UInt32
        /// Per-plane opacity, 0...0xffff (vc4, i915 sprites); nil where the planes have none (vkms).
        package let alpha: UInt32?
        /// The stacking property when a commit may set it (vc4); nil when fixed or absent, and
        /// the planes then stack as listed.
        package let zpos: UInt32?
        /// Its fixed or current zpos, for sorting.
        package let zposValue: UInt64
    }
    /// Bottom to top.
    package let planes: [Plane]
    /// The zpos the lowest overlay gets when zpos can be set: above the primary plane's.
    package let firstZpos: UInt64

    /// The CRTC's usable overlays; empty where there are none (bochs, most virtual GPUs).
    package init(card: DrmCard, crtcIndex: Int, primaryZpos: UInt64?, excluding taken: Set<UInt32>) {
        let fd = card.fd
        var found: [Plane] = []
        if let resources = DrmObjects.planeResources(fd) {
            for i in 0..<Int(resources.pointer.pointee.count_planes) {
                let id = resources.pointer.pointee.planes[i]
                guard !taken.contains(id), let plane = DrmObjects.plane(fd, id),
                      plane.pointer.pointee.possible_crtcs & (1 << UInt32(crtcIndex)) != 0,
                      Self.offers(cdrm_format_xrgb8888(), plane.pointer.pointee) else { continue }
                let props = DrmProperties(fd: fd, objectID: id, objectType: UInt32(DRM_MODE_OBJECT_PLANE))
                guard props["type"]?.value == UInt64(DRM_PLANE_TYPE_OVERLAY), let overlay = Self.plane(id, props) else { continue }
                found.append(overlay)
            }
        }
        planes = found.enumerated().sorted { ($0.element.zposValue, $0.offset) < ($1.element.zposValue, $1.offset) }.map(\.element)
        firstZpos = (primaryZpos ?? 0) + 1
    }

    package var capabilities: PlaneCapabilities {
        // Scaling has no property: the TEST_ONLY commit finds out (DrmOutput remembers a refusal).
        PlaneCapabilities(overlays: planes.count, canScale: true, hasAlpha: !planes.isEmpty && planes.allSatisfy { $0.alpha != nil })
    }

    private static func offers(_ format: UInt32, _ plane: drmModePlane) -> Bool {
        (0..<Int(plane.count_formats)).contains { plane.formats[$0] == format }
    }

    private static func plane(_ id: UInt32, _ props: DrmProperties) -> Plane? {
        func p(_ name: String) -> UInt32? { props[name]?.id }
        guard let fb = p("FB_ID"), let crtc = p("CRTC_ID"), let srcX = p("SRC_X"), let srcY = p("SRC_Y"),
              let srcW = p("SRC_W"), let srcH = p("SRC_H"), let crtcX = p("CRTC_X"), let crtcY = p("CRTC_Y"),
              let crtcW = p("CRTC_W"), let crtcH = p("CRTC_H") else { return nil }
        let zpos = props["zpos"]
        return Plane(id: id, fb: fb, crtc: crtc, srcX: srcX, srcY: srcY, srcW: srcW, srcH: srcH,
                     crtcX: crtcX, crtcY: crtcY, crtcW: crtcW, crtcH: crtcH, alpha: p("alpha"),
                     zpos: zpos?.immutable == false ? zpos?.id : nil, zposValue: zpos?.value ?? 0)
    }
}
