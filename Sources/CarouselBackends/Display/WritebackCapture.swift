import CarouselCore
import CDRM
import Glibc

/// `ctl writeback`: the next frames as the display engine composed them, read back through
/// the CRTC's writeback connector (vkms, rockchip, some others; not vc4's HDMI), each saved as
/// raw XRGB8888 into the directory the client passed, with `frames.tsv` giving each one's flip
/// time. It shows what the planes really showed, where a screenshot can only flatten them.
///
/// Three buffers take turns: a commit gets a writeback job only while one is free, and a buffer
/// is saved once its out-fence signals (looked at after each flip, without waiting, and with a
/// short wait for the last).
package final class WritebackCapture {
    private let card: DrmCard
    private let connectorID: UInt32
    private let ids: (fb: UInt32, fence: UInt32, crtc: UInt32)
    private let buffers: [DumbBuffer]
    /// The client's directory (a descriptor of our own, closed with the capture).
    private let directory: Int32
    /// Frames still to attach, and jobs attached but not saved (buffer, out-fence, commit).
    private var remaining: Int
    private var inFlight: [(buffer: Int, fence: Int32, frame: Int)] = []
    private var attachedFrames = 0
    /// The screen's connector, taken off the CRTC for the capture (see `init`).
    private let moved: (connector: UInt32, property: UInt32, crtc: UInt32)?
    /// Frames read back so far (name, pixels, flip time), written out when the capture ends:
    /// writing as they come would hold the loop up between frames.
    private var saved: [(name: String, pixels: [UInt8], time: Double)] = []
    /// Where the kernel writes each job's out-fence (a stable address for the commit).
    private let fencePointer = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

    /// Finds a writeback connector `target`'s CRTC can feed and joins it to the CRTC (a
    /// blocking modeset commit, made at rest). Throws saying why there is none.
    package init(card: DrmCard, target: ScanoutTarget, frames: Int, directory: Int32) throws(DisplayError) {
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
        var buffers: [DumbBuffer] = []
        for _ in 0..<3 { buffers.append(try DumbBuffer(card: card, width: target.mode.width, height: target.mode.height)) }
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
        // Set only now: a throw above leaves the directory to the caller.
        self.card = card; self.connectorID = connectorID; self.ids = ids; self.buffers = buffers
        self.directory = directory; remaining = frames; self.moved = moved
    }

    /// Gives the CRTC back to the screen's connector alone (a blocking modeset, after a flip).
    package func end() {
        writeFiles()
        var routes = [(connectorID, ids.crtc, UInt32(0))]
        if let moved { routes.append((moved.connector, moved.property, moved.crtc)) }
        if !Self.route(card.fd, routes) {
            Log.warning("writeback: giving the CRTC back: \(SystemError(call: "atomic modeset", errno: Glibc.errno))")
        }
    }

    /// One blocking modeset commit setting connectors' CRTC_ID.
    private static func route(_ fd: Int32, _ routes: [(connector: UInt32, property: UInt32, crtc: UInt32)]) -> Bool {
        guard let request = DrmObjects.atomicRequest() else { return false }
        for r in routes where drmModeAtomicAddProperty(request.pointer, r.connector, r.property, UInt64(r.crtc)) < 0 { return false }
        return drmModeAtomicCommit(fd, request.pointer, cdrm_mode_atomic_allow_modeset(), nil) == 0
    }

    deinit {
        for job in inFlight { close(job.fence) }
        close(directory)
        fencePointer.deallocate()
    }

    /// True once every frame asked for has its job committed.
    package var allAttached: Bool { remaining == 0 }
    /// True once every frame asked for is saved.
    package var finished: Bool { remaining == 0 && inFlight.isEmpty }

    /// Adds a writeback job to a commit about to be made, if a buffer is free.
    package func attach(_ request: drmModeAtomicReqPtr) -> Bool {
        guard remaining > 0, let free = (0..<buffers.count).first(where: { b in !inFlight.contains { $0.buffer == b } }) else { return false }
        fencePointer.pointee = -1
        let pointer = UInt64(UInt(bitPattern: fencePointer))
        guard drmModeAtomicAddProperty(request, connectorID, ids.fb, UInt64(buffers[free].framebufferID)) >= 0,
              drmModeAtomicAddProperty(request, connectorID, ids.fence, pointer) >= 0 else { return false }
        inFlight.append((free, -1, attachedFrames))
        return true
    }

    /// The commit carrying the last attached job was made (`applied`) or refused.
    package func committed(_ applied: Bool) {
        guard let last = inFlight.indices.last, inFlight[last].fence == -1 else { return }
        if applied, fencePointer.pointee >= 0 {
            inFlight[last].fence = fencePointer.pointee
            attachedFrames += 1
            remaining -= 1
        } else {
            inFlight.removeLast()
        }
    }

    /// After a flip: saves the buffers whose writeback finished, with `time` (when the frame
    /// became visible) in frames.tsv. The driver signals a frame's writeback once it composed
    /// it, which can be just after its flip: older jobs are waited for (briefly: they are
    /// done), the newest only with `wait` (the last one asked for).
    package func collect(flippedAt time: Double, wait: Bool) {
        let newest = inFlight.last?.frame
        for job in inFlight where job.fence >= 0 {
            var p = pollfd(fd: job.fence, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, job.frame != newest ? 50 : wait ? 200 : 0) > 0 else { continue }
            save(job, time: time)
            close(job.fence)
            inFlight.removeAll { $0.frame == job.frame }
        }
    }

    private func save(_ job: (buffer: Int, fence: Int32, frame: Int), time: Double) {
        let buffer = buffers[job.buffer]
        let number = String(job.frame + 1), padded = String(repeating: "0", count: max(0, 3 - number.count)) + number
        let rowBytes = buffer.width * 4
        var rows = [UInt8](repeating: 0, count: rowBytes * buffer.height)
        rows.withUnsafeMutableBytes { out in
            for row in 0..<buffer.height { memcpy(out.baseAddress! + row * rowBytes, buffer.pixels + row * buffer.stride, rowBytes) }
        }
        saved.append(("frame-\(padded)-\(buffer.width)x\(buffer.height).xrgb", rows, time))
    }

    /// Writes the frames and frames.tsv into the client's directory. From memory of our own: a
    /// file system that maps the writer's pages (9p) cannot take them from a dumb buffer (EFAULT).
    private func writeFiles() {
        var list = ""
        for frame in saved {
            let file = openat(directory, frame.name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            let written = file < 0 ? -1 : frame.pixels.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
            let error = Glibc.errno
            if file >= 0 { close(file) }
            guard written == frame.pixels.count else {
                Log.warning("writeback: \(frame.name): \(SystemError(call: file < 0 ? "openat" : "write", errno: error))")
                return
            }
            list += "\(frame.name)\t\(frame.time)\n"
        }
        let file = openat(directory, "frames.tsv", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else { return }
        _ = list.withCString { write(file, $0, strlen($0)) }
        close(file)
    }
}
