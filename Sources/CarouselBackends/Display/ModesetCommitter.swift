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

/// How frames reach the screen: atomic commits or legacy SetCrtc + PageFlip. One interface,
/// two implementations (like wlroots' backend iface), chosen once per card.
package protocol ModesetCommitter: AnyObject {
    /// "atomic" or "legacy", for logs.
    var kind: String { get }
    /// Whether the plane can show the picture rotated by `degrees` (counter-clockwise, as
    /// DRM_MODE_ROTATE_*); when false the caller rotates in software.
    func supportsRotation(_ degrees: Int, target: ScanoutTarget, buffer: DumbBuffer) -> Bool
    /// Lights up `target` showing `buffer`, rotated by the plane. Returns true when a flip
    /// event of the target's CRTC will report completion, false when it completed on return.
    func modeset(_ target: ScanoutTarget, buffer: DumbBuffer, rotation: Int) throws(DisplayError) -> Bool
    /// Queues `buffer` for the next vblank; completion comes as a flip event of the target's CRTC.
    func flip(_ target: ScanoutTarget, buffer: DumbBuffer) throws(DisplayError)
    /// Gives the CRTC back as it was before (and undoes plane state such as rotation).
    func restore(_ saved: SavedCrtc) -> Bool
    /// Turns the CRTC's output off (DPMS off): the monitor sees no signal. The next `modeset`
    /// turns it on again. False when the driver refused.
    func switchOff(_ target: ScanoutTarget) -> Bool
}

/// Legacy KMS: drmModeSetCrtc for the modeset, drmModePageFlip for frames. No plane
/// rotation, so rotation is always done in software.
package final class LegacyCommitter: ModesetCommitter {
    package let kind = "legacy"
    private let card: DrmCard
    private var fd: Int32 { card.fd }
    package init(card: DrmCard) { self.card = card }

    package func supportsRotation(_ degrees: Int, target: ScanoutTarget, buffer: DumbBuffer) -> Bool { degrees == 0 }

    package func modeset(_ target: ScanoutTarget, buffer: DumbBuffer, rotation: Int) throws(DisplayError) -> Bool {
        var connector = target.connectorID
        var mode = target.mode.raw
        guard drmModeSetCrtc(fd, target.crtcID, buffer.framebufferID, 0, 0, &connector, 1, &mode) == 0 else {
            throw .system(call: "drmModeSetCrtc \(target.mode.label)", errno: Glibc.errno, path: target.connectorName)
        }
        return false
    }

    package func flip(_ target: ScanoutTarget, buffer: DumbBuffer) throws(DisplayError) {
        guard drmModePageFlip(fd, target.crtcID, buffer.framebufferID, cdrm_mode_page_flip_event(), nil) == 0 else {
            throw .system(call: "drmModePageFlip", errno: Glibc.errno, path: target.connectorName)
        }
    }

    package func restore(_ saved: SavedCrtc) -> Bool { saved.restore(fd: fd) }

    /// The connector's DPMS property, off (a legacy SetCrtc turns it on again).
    package func switchOff(_ target: ScanoutTarget) -> Bool {
        let properties = DrmProperties(fd: fd, objectID: target.connectorID, objectType: UInt32(DRM_MODE_OBJECT_CONNECTOR))
        guard let dpms = properties["DPMS"]?.id else { return false }
        return drmModeConnectorSetProperty(fd, target.connectorID, dpms, UInt64(DRM_MODE_DPMS_OFF)) == 0
    }
}
