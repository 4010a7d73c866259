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
    /// Cards on overlay planes (atomic, unrotated, `planes = "auto"`, overlays free); nil: composed.
    package let cardPlanes: (committer: AtomicCommitter, buffers: CardFramebuffers, capabilities: PlaneCapabilities)?
    /// The driver refused scaled cards in a TEST_ONLY commit: frames with them are composed
    /// without asking again.
    package var planesCannotScale = false
    /// The cards on overlays in the frame on screen and in the one queued (empty: composed).
    package var cardsShown: (current: [(placed: PlacedCard, buffer: DumbBuffer)], pending: [(placed: PlacedCard, buffer: DumbBuffer)]) = ([], [])
    /// The last planes frame flattened for `ctl screenshot`.
    package var snapshot: PixelImage?

    package init(card: DrmCard, target: ScanoutTarget, settings: OutputSettings) throws(DisplayError) {
        self.target = target
        var committer: ModesetCommitter = LegacyCommitter(card: card)
        if !settings.forceLegacy && card.enableAtomic() {
            do throws(DisplayError) {
                committer = try AtomicCommitter(card: card, target: target)
            } catch {
                Log.warning("\(card.path): atomic modesetting unusable (\(error)); using legacy")
            }
        }
        self.committer = committer
        cardPlanes = Self.cardPlanes(card: card, target: target, committer: committer, settings: settings)
        let mode = target.mode
        let quarterTurn = settings.rotation == 90 || settings.rotation == 270
        let (pictureWidth, pictureHeight) = quarterTurn ? (mode.height, mode.width) : (mode.width, mode.height)
        let count = max(2, min(3, settings.bufferCount))

        // Plane rotation scans out a buffer of the picture's size; try it first.
        if settings.rotation != 0 {
            let probe = try DumbBuffer(card: card, width: pictureWidth, height: pictureHeight)
            if committer.supportsRotation(settings.rotation, target: target, buffer: probe) {
                var buffers = [probe]
                for _ in 1..<count { buffers.append(try DumbBuffer(card: card, width: pictureWidth, height: pictureHeight)) }
                self.buffers = buffers; planeRotation = settings.rotation; rotator = nil
                return
            }
            Log.info("\(target.connectorName): plane cannot rotate by \(settings.rotation)°; rotating in software")
        }
        var buffers: [DumbBuffer] = []
        for _ in 0..<count { buffers.append(try DumbBuffer(card: card, width: mode.width, height: mode.height)) }
        self.buffers = buffers
        planeRotation = 0
        rotator = SoftwareRotator(degrees: settings.rotation, width: pictureWidth, height: pictureHeight)
    }

    /// The overlays this screen may put cards on: atomic, unrotated (a quarter turn would need
    /// the cards turned too; vc4's planes cannot rotate), and overlays no other screen holds.
    private static func cardPlanes(card: DrmCard, target: ScanoutTarget, committer: ModesetCommitter,
                                   settings: OutputSettings) -> (AtomicCommitter, CardFramebuffers, PlaneCapabilities)? {
        guard settings.planes, settings.rotation == 0, let atomic = committer as? AtomicCommitter else { return nil }
        let overlays = OverlayPlanes(card: card, crtcIndex: target.crtcIndex, primaryZpos: atomic.primaryZpos,
                                     excluding: card.claimedPlanes)
        guard !overlays.planes.isEmpty else { return nil }
        card.claim(planes: overlays.planes.map(\.id), for: target.crtcID)
        atomic.overlays = overlays
        return (atomic, CardFramebuffers(card: card), overlays.capabilities)
    }

    package var atomic: AtomicCommitter? { committer as? AtomicCommitter }

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
