import CarouselPixels

/// The property values one overlay plane shows a card with, as a commit sets them. The kernel
/// keeps a plane's properties from commit to commit, so a frame's request names only the ones
/// that changed since the last applied commit (a card sliding across moves CRTC_X, and SRC_X
/// and the widths at the screen's edge), as kmscube's frames name only FB_ID. Each property in
/// a request costs libdrm a sort and a copy and the kernel a lookup of its object under the
/// mode config's lock; a full card was twelve.
struct OverlaySettings: Equatable {
    var fb, crtc: UInt64
    var srcX, srcY, srcW, srcH: UInt64    // 16.16 fixed point, card pixels
    var crtcX, crtcY, crtcW, crtcH: UInt64
    var zpos, alpha: UInt64?

    /// `placed` on `crtcID` from `framebuffer`, at `zpos` where the plane's stacking may be set,
    /// with an opacity where the plane has one.
    init(_ placed: PlacedCard, framebuffer: UInt32, crtcID: UInt32, zpos: UInt64?, hasAlpha: Bool) {
        func fixed(_ value: Double) -> UInt64 { UInt64((value * 65536).rounded()) }
        let d = placed.destination
        fb = UInt64(framebuffer); crtc = UInt64(crtcID)
        srcX = fixed(placed.source.x); srcY = fixed(placed.source.y)
        srcW = fixed(placed.source.width); srcH = fixed(placed.source.height)
        crtcX = UInt64(bitPattern: Int64(d.x)); crtcY = UInt64(bitPattern: Int64(d.y))
        crtcW = UInt64(d.width); crtcH = UInt64(d.height)
        self.zpos = zpos
        alpha = hasAlpha ? UInt64((placed.alpha * 0xffff).rounded()) : nil
    }

    /// Calls `set` with FB_ID, then each other property of `plane` whose value differs from
    /// `shown` (every one when `shown` is nil: the plane's state is not known). FB_ID always: a
    /// frame that moves nothing (the spring's last frames can round alike) must still name the
    /// plane, which brings its CRTC into the commit and so the flip event that paces the next
    /// frame; libdrm sends no request at all without a property.
    func changes(from shown: OverlaySettings?, on plane: OverlayPlanes.Plane,
                 _ set: (_ property: UInt32, _ value: UInt64) -> Void) {
        func put(_ property: UInt32, _ value: UInt64, _ old: UInt64?) {
            if shown == nil || value != old { set(property, value) }
        }
        set(plane.fb, fb); put(plane.crtc, crtc, shown?.crtc)
        put(plane.srcX, srcX, shown?.srcX); put(plane.srcY, srcY, shown?.srcY)
        put(plane.srcW, srcW, shown?.srcW); put(plane.srcH, srcH, shown?.srcH)
        put(plane.crtcX, crtcX, shown?.crtcX); put(plane.crtcY, crtcY, shown?.crtcY)
        put(plane.crtcW, crtcW, shown?.crtcW); put(plane.crtcH, crtcH, shown?.crtcH)
        if let property = plane.zpos, let zpos { put(property, zpos, shown?.zpos ?? nil) }
        if let property = plane.alpha, let alpha { put(property, alpha, shown?.alpha ?? nil) }
    }
}
