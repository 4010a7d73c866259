import CarouselPixels
import CDRM
import Glibc

/// Where the picture goes: one CRTC driving one connector in one mode.
package struct ScanoutTarget {
    package var crtcID: UInt32
    /// Position of the CRTC in the card's resource list (planes name CRTCs by this bit).
    package var crtcIndex: Int
    package var connectorID: UInt32
    package var connectorName: String
    package var mode: ModeInfo
}

/// The CRTC as it was before carouseld took it, so the console comes back on exit.
package struct SavedCrtc {
    package var crtcID: UInt32
    package var connectorID: UInt32
    package var framebufferID: UInt32
    package var x: UInt32
    package var y: UInt32
    package var mode: drmModeModeInfo?

    /// Reads the CRTC's current state (drmModeGetCrtc); nil if it cannot be read.
    package init?(fd: Int32, crtcID: UInt32, connectorID: UInt32) {
        guard let crtc = DrmObjects.crtc(fd, crtcID)?.pointer.pointee else { return nil }
        self.crtcID = crtcID; self.connectorID = connectorID
        framebufferID = crtc.buffer_id; x = crtc.x; y = crtc.y
        mode = crtc.mode_valid != 0 ? crtc.mode : nil
    }

    /// Puts the saved framebuffer and mode back with the legacy SetCrtc, which atomic drivers
    /// also implement; a CRTC that was off is switched off.
    package func restore(fd: Int32) -> Bool {
        var connector = connectorID
        if framebufferID != 0, var mode {
            return drmModeSetCrtc(fd, crtcID, framebufferID, x, y, &connector, 1, &mode) == 0
        }
        return drmModeSetCrtc(fd, crtcID, 0, 0, 0, nil, 0, nil) == 0
    }
}

/// Whether the first frame can take the screen over without a modeset: the CRTC is lit, on this
/// connector, in the very mode the daemon lights it with (a splash's, the console's or the
/// firmware's). The first commit then only replaces the primary plane's buffer, as i915's
/// fastboot and plymouth's handover do, and no blank frame comes between what was on the glass
/// and the picture (issue 46). Atomic drivers only: legacy SetCrtc is a modeset by definition.
package enum ModeOnScreen {
    /// `before`: the CRTC as it was before the daemon's first commit.
    package static func canKeep(fd: Int32, target: ScanoutTarget, before: SavedCrtc?) -> Bool {
        guard let before, before.framebufferID != 0, let mode = before.mode, sameTiming(mode, target.mode.raw) else { return false }
        let crtc = DrmProperties(fd: fd, objectID: target.crtcID, objectType: UInt32(DRM_MODE_OBJECT_CRTC))
        let connector = DrmProperties(fd: fd, objectID: target.connectorID, objectType: UInt32(DRM_MODE_OBJECT_CONNECTOR))
        // Not ACTIVE: blanked (the console's blanking, DPMS off) with its mode still set. A plane
        // update would leave it dark.
        return crtc["ACTIVE"]?.value == 1 && connector["CRTC_ID"]?.value == UInt64(target.crtcID)
    }

    /// The same timings (the name and the type bits aside, which only describe the mode).
    static func sameTiming(_ a: drmModeModeInfo, _ b: drmModeModeInfo) -> Bool {
        (a.clock, a.hdisplay, a.hsync_start, a.hsync_end, a.htotal, a.hskew) == (b.clock, b.hdisplay, b.hsync_start, b.hsync_end, b.htotal, b.hskew)
            && (a.vdisplay, a.vsync_start, a.vsync_end, a.vtotal, a.vscan, a.flags) == (b.vdisplay, b.vsync_start, b.vsync_end, b.vtotal, b.vscan, b.flags)
    }
}

/// A framebuffer the primary plane can scan out: a dumb buffer, or a screen-sized view into a
/// wider one (`FramebufferView`, the panned strip).
package protocol ScanoutBuffer: AnyObject {
    var framebufferID: UInt32 { get }
    var width: Int { get }
    var height: Int { get }
    /// The plane's SRC_X in pixels: the first column of the framebuffer shown (atomic only).
    var sourceX: Int { get }
}

extension ScanoutBuffer {
    package var sourceX: Int { 0 }
}

/// One CRTC's next state in KMS terms: what `DrmOutput` makes of a `FrameState`.
package struct KmsState {
    package var target: ScanoutTarget
    /// Lights the CRTC with a full modeset (the first frame, or waking), the primary plane
    /// rotated by this many degrees; nil: the CRTC is lit already.
    package var lighting: Int?
    /// false: the CRTC's output off (DPMS off, ACTIVE = 0); nothing else is in the state.
    package var active = true
    /// The primary plane's new buffer; nil: it keeps its own.
    package var primary: (any ScanoutBuffer)?
    /// A view into the panned strip's window: a driver that cannot show it (its memory is
    /// full, or it refuses the framebuffer) answers `.refused`, and the frame is composed.
    package var panned: Bool { primary is FramebufferView }
    /// Cards on the overlays, bottom to top; overlays lit before and unused now go dark.
    package var cards: [(placed: PlacedCard, buffer: DumbBuffer)] = []
    /// With `lighting`: the CRTC already shows this mode on this connector (`ModeOnScreen`), so
    /// the plane's buffer is replaced with no modeset. Atomic only.
    package var keepsMode = false

    package init(target: ScanoutTarget, lighting: Int? = nil, active: Bool = true, primary: (any ScanoutBuffer)? = nil,
                 cards: [(placed: PlacedCard, buffer: DumbBuffer)] = []) {
        self.target = target; self.lighting = lighting; self.active = active; self.primary = primary; self.cards = cards
    }
}

/// What a committer made of a state.
package enum KmsOutcome {
    /// Tested fine, or applied: `evented` when a flip event of the CRTC will report completion,
    /// false when it completed on return.
    case accepted(evented: Bool)
    /// The driver's check refused it (errno); nothing changed on screen.
    case refused(errno: Int32)
}

/// How states reach the screen: atomic commits or legacy SetCrtc + PageFlip. One interface,
/// two implementations (like wlroots' backend iface), chosen once per card.
package protocol ModesetCommitter: AnyObject {
    /// "atomic" or "legacy", for logs.
    var kind: String { get }
    /// Tests (`test`) or applies `state`. Throws when applying fails for another reason than
    /// the driver's check (which is `.refused`).
    func commit(_ state: KmsState, test: Bool) throws(DisplayError) -> KmsOutcome
    /// Gives the CRTC back as it was before (and undoes plane state such as rotation).
    func restore(_ saved: SavedCrtc) -> Bool
}

/// Legacy KMS: drmModeSetCrtc for the modeset, drmModePageFlip for frames, the connector's DPMS
/// property for off. No planes beyond the primary and no plane rotation.
package final class LegacyCommitter: ModesetCommitter {
    package let kind = "legacy"
    private let card: DrmCard
    private var fd: Int32 { card.fd }
    package init(card: DrmCard) { self.card = card }

    package func commit(_ state: KmsState, test: Bool) throws(DisplayError) -> KmsOutcome {
        let target = state.target
        guard state.cards.isEmpty, (state.lighting ?? 0) == 0 else { return .refused(errno: EINVAL) }
        if test { return .accepted(evented: false) }
        if !state.active {
            return switchOff(target) ? .accepted(evented: false) : .refused(errno: Glibc.errno)
        }
        guard let buffer = state.primary else { return .accepted(evented: false) }
        // A page flip shows a framebuffer from its first column.
        guard buffer.sourceX == 0 else { return .refused(errno: EINVAL) }
        if state.lighting != nil {
            var connector = target.connectorID
            var mode = target.mode.raw
            guard drmModeSetCrtc(fd, target.crtcID, buffer.framebufferID, 0, 0, &connector, 1, &mode) == 0 else {
                throw .system(call: "drmModeSetCrtc \(target.mode.label)", errno: Glibc.errno, path: target.connectorName)
            }
            return .accepted(evented: false)
        }
        guard drmModePageFlip(fd, target.crtcID, buffer.framebufferID, cdrm_mode_page_flip_event(), nil) == 0 else {
            if state.panned { return .refused(errno: Glibc.errno) }
            throw .system(call: "drmModePageFlip", errno: Glibc.errno, path: target.connectorName)
        }
        return .accepted(evented: true)
    }

    package func restore(_ saved: SavedCrtc) -> Bool { saved.restore(fd: fd) }

    /// The connector's DPMS property, off (a legacy SetCrtc turns it on again).
    private func switchOff(_ target: ScanoutTarget) -> Bool {
        let properties = DrmProperties(fd: fd, objectID: target.connectorID, objectType: UInt32(DRM_MODE_OBJECT_CONNECTOR))
        guard let dpms = properties["DPMS"]?.id else { return false }
        return drmModeConnectorSetProperty(fd, target.connectorID, dpms, UInt64(DRM_MODE_DPMS_OFF)) == 0
    }
}
