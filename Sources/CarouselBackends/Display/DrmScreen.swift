import CarouselCore
import CarouselEngine
import CarouselPixels

/// Everything that belongs to one lit connector: its CRTC, mode, scanout buffers, commit
/// path and rotation. Built anew when the connector or mode changes; freed with it.
package final class DrmScreen {
    package let target: ScanoutTarget
    package let committer: ModesetCommitter
    package let buffers: [DumbBuffer]
    /// Rotation done by the plane (0 when done in software or not at all).
    package let planeRotation: Int
    package let rotator: SoftwareRotator?
    /// False until the first frame has been committed with a full modeset.
    package var lit = false
    /// The committer when it is atomic: overlay planes and writeback need it.
    package let atomic: AtomicCommitter?
    /// What the overlay planes for cards can do (atomic, unrotated, `planes = "auto"`, overlays
    /// free); nil: every frame is composed. `canScale` turns false once the driver refused
    /// scaled cards, so frames with them are composed without asking again.
    package var planeCapabilities: PlaneCapabilities?
    /// The cards' framebuffers on those planes.
    package let cardBuffers: CardFramebuffers?
    /// The panned strip's windows, on a screen that has no overlay planes for cards, is not
    /// rotated, and whose driver pans (`DrmCard.panMethods`); nil: frames are composed.
    package private(set) var panBuffers: PanBuffers?
    /// The last planes frame flattened for `ctl screenshot`.
    package var snapshot: PixelImage?
    /// Frames committed composed on the CPU, with cards on overlay planes, and as views of the
    /// panned strip (the stats line: a page change on planes that falls back to composing shows
    /// here).
    package var composedFrames = 0, planeFrames = 0, pannedFrames = 0

    package init(card: DrmCard, target: ScanoutTarget, settings: OutputSettings) throws(DisplayError) {
        self.target = target
        var atomic: AtomicCommitter?
        if !settings.forceLegacy && card.enableAtomic() {
            do throws(DisplayError) {
                atomic = try AtomicCommitter(card: card, target: target)
            } catch {
                Log.warning("\(card.path): atomic modesetting unusable (\(error)); using legacy")
            }
        }
        self.atomic = atomic
        let committer: ModesetCommitter = atomic ?? LegacyCommitter(card: card)
        self.committer = committer
        planeCapabilities = atomic.flatMap { Self.claimOverlays(card: card, target: target, atomic: $0, settings: settings) }
        cardBuffers = planeCapabilities == nil ? nil : CardFramebuffers(card: card)
        let mode = target.mode
        let quarterTurn = settings.rotation == 90 || settings.rotation == 270
        let (pictureWidth, pictureHeight) = quarterTurn ? (mode.height, mode.width) : (mode.width, mode.height)
        let count = max(2, min(3, settings.bufferCount))

        // Plane rotation scans out a buffer of the picture's size; try it first.
        if settings.rotation != 0 {
            let probe = try DumbBuffer(card: card, width: pictureWidth, height: pictureHeight)
            // The property can list a value the hardware refuses for this format: ask the kernel.
            let rotated = KmsState(target: target, lighting: settings.rotation, primary: probe)
            if case .accepted = try committer.commit(rotated, test: true) {
                var buffers = [probe]
                for _ in 1..<count { buffers.append(try DumbBuffer(card: card, width: pictureWidth, height: pictureHeight)) }
                DumbBuffer.faultIn(buffers)
                self.buffers = buffers; planeRotation = settings.rotation; rotator = nil
                panBuffers = nil
                return
            }
            Log.info("\(target.connectorName): plane cannot rotate by \(settings.rotation)°; rotating in software")
        }
        var buffers: [DumbBuffer] = []
        for _ in 0..<count { buffers.append(try DumbBuffer(card: card, width: mode.width, height: mode.height)) }
        DumbBuffer.faultIn(buffers)
        self.buffers = buffers
        planeRotation = 0
        rotator = SoftwareRotator(degrees: settings.rotation, width: pictureWidth, height: pictureHeight)
        // SRC_X needs atomic modesetting: a legacy page flip shows a framebuffer from its first column.
        let method = DrmCard.panMethods[card.driverName].flatMap { method in method == .sourceX && atomic == nil ? nil : method }
        panBuffers = planeCapabilities == nil && rotator == nil ? method.map { PanBuffers(card: card, viewWidth: mode.width, method: $0) } : nil
    }

    /// The overlays this screen may put cards on: unrotated (a quarter turn would need the
    /// cards turned too; vc4's planes cannot rotate), and overlays no other screen holds.
    private static func claimOverlays(card: DrmCard, target: ScanoutTarget, atomic: AtomicCommitter,
                                      settings: OutputSettings) -> PlaneCapabilities? {
        guard settings.planes, settings.rotation == 0 else { return nil }
        let overlays = OverlayPlanes(card: card, crtcIndex: target.crtcIndex, primaryZpos: atomic.primaryZpos,
                                     excluding: card.claimedPlanes)
        guard !overlays.planes.isEmpty else { return nil }
        card.claim(planes: overlays.planes.map(\.id), for: target.crtcID)
        atomic.overlays = overlays
        return overlays.capabilities
    }

    /// The picture size (after rotation).
    package var size: Size {
        if let rotator { return Size(width: Double(rotator.width), height: Double(rotator.height)) }
        return Size(width: Double(buffers[0].width), height: Double(buffers[0].height))
    }

    package var rotationLabel: String {
        planeRotation != 0 ? "rotation \(planeRotation)° by plane"
            : rotator.map { "rotation \($0.degrees)° in software" } ?? "no rotation"
    }
}
