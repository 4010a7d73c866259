import CarouselCore
import CarouselEngine

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
