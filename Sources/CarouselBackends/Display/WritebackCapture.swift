import CarouselCore
import CDRM
import Glibc

/// `ctl writeback`: the next frames as the display engine composed them, read back through
/// the CRTC's writeback connector (vkms, rockchip, some others; not vc4's HDMI), each saved as
/// raw XRGB8888 into the directory the client passed, with `frames.tsv` giving each one's flip
/// time. It shows what the planes really showed, where a screenshot can only flatten them.
///
/// One job at a time: vkms (Linux 6.1) keeps a single pending writeback per CRTC and switches
/// its composer off when it cleans a finished job up, just after signalling it, so a second job
/// in flight gets another frame's pixels or is never written. A job goes with a commit only
/// once a flip has passed since the last one was written, so frames are skipped while the
/// display engine writes back. Nothing waits: the job's out-fence is watched on the event loop,
/// the buffer copied once it signals; its flip time is the flip that followed its commit.
/// The capture ends with fewer frames when the screen rests (no flip for two seconds): a page
/// change shows a few dozen frames, and at rest none come. It ends too when a job is not
/// written within seconds (the driver lost it), whether or not flips still come.
package final class WritebackCapture {
    private let connector: WritebackConnector
    private let buffer: DumbBuffer
    private weak var loop: EventLoop?
    private var recording: WritebackRecording
    /// Frames still to commit a job for, and the job committed and not written yet.
    private var remaining: Int
    private var job: Job?
    /// A job was added to the commit being made, until `committed`.
    private var attaching = false
    /// Flips since the last job was written (one must pass before the next job).
    private var flipsSinceWritten = 1
    /// Where the kernel writes the job's out-fence (a stable address for the commit).
    private let fencePointer = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    /// Ends the capture once the screen rests, or once the job in flight is overdue.
    private var rest: LoopTimer?
    private var overdue: LoopTimer?
    /// Called from the loop once every frame is read back and has its flip time.
    private let whenFinished: () -> Void

    private struct Job {
        let number: Int
        let fence: Int32
        /// Dropped before the fence is closed.
        var watch: Watch?
        var flipTime: Double?
    }

    /// Seconds after its commit by which a job not written was lost by the driver (vkms writes
    /// one back within a few refreshes, even under emulation): the capture ends.
    private static let lostAfter = 5.0
    /// Seconds without a flip after which the screen rests and the capture ends (longer than
    /// between `ctl writeback` and a `ctl next` run right after it).
    private static let restAfter = 2.0

    /// Joins a writeback connector to `target`'s CRTC (see `WritebackConnector`). Throws saying
    /// why it cannot; `directory` is the caller's then.
    package init(card: DrmCard, target: ScanoutTarget, frames: Int, directory: Int32, loop: EventLoop?,
                 whenFinished: @escaping () -> Void) throws(DisplayError) {
        self.whenFinished = whenFinished
        buffer = try DumbBuffer(card: card, width: target.mode.width, height: target.mode.height)
        connector = try WritebackConnector(card: card, target: target)
        recording = WritebackRecording(directory: directory)
        remaining = frames
        self.loop = loop
        rest = loop?.timer("writeback: the screen rests", owner: self) { owner, _ in owner.rested() }
        overdue = loop?.timer("writeback: a job overdue", owner: self) { owner, _ in owner.lost() }
    }

    deinit {
        if let fence = job?.fence {
            job = nil   // the watch goes before its fence
            close(fence)
        }
        close(recording.directory)
        fencePointer.deallocate()
    }

    /// True once every frame asked for is read back (or the driver lost one) and has its flip time.
    package var finished: Bool { remaining == 0 && job == nil && !attaching && recording.allTimed }

    /// Writes the frames out and gives the CRTC back (a blocking modeset, after a flip).
    package func end() {
        recording.write()
        connector.giveBack()
    }

    /// Adds a writeback job to a commit about to be made, when it is the next one's turn.
    package func attach(_ request: drmModeAtomicReqPtr) -> Bool {
        guard remaining > 0, loop != nil, job == nil, flipsSinceWritten > 0,
              connector.addJob(to: request, buffer: buffer, fence: fencePointer) else { return false }
        attaching = true
        return true
    }

    /// The commit carrying the job just attached was made (`applied`) or refused.
    package func committed(_ applied: Bool) {
        guard attaching else { return }
        attaching = false
        let fence = fencePointer.pointee, number = recording.count + 1
        guard applied, fence >= 0, let loop else {
            Log.debug("writeback: a job not committed (applied \(applied), out-fence \(fence))")
            return
        }
        do {
            let watch = try loop.watch(fence, name: "writeback fence", owner: self) { $0.written() }
            job = Job(number: number, fence: fence, watch: watch)
            overdue?.schedule(at: loop.time.now() + Self.lostAfter)
            remaining -= 1
            Log.debug("writeback: frame \(number) committed")
        } catch {
            close(fence)
            Log.warning("writeback: watching an out-fence: \(error)")
        }
    }

    /// A flip came: it showed the frame committed with the job, if the job has no flip yet.
    package func flipped(at time: Double) {
        flipsSinceWritten += 1
        if remaining > 0 { rest?.schedule(at: time + Self.restAfter) }
        recording.flipped(at: time)
        if job?.flipTime == nil { job?.flipTime = time }
        if finished { whenFinished() }
    }

    /// The job's out-fence signalled: the display engine wrote the frame into the buffer.
    private func written() {
        guard let done = job else { return }
        recording.add(buffer, number: done.number, time: done.flipTime)
        Log.debug("writeback: frame \(done.number) written")
        drop()
        flipsSinceWritten = 0
        if finished { whenFinished() }
    }

    /// No flip for a while after the frames began: no more will come until the next change.
    private func rested() {
        guard remaining > 0, recording.count > 0 || job != nil else { return }
        Log.info("writeback: the screen rests; ending with \(recording.count + (job == nil ? 0 : 1)) frames")
        remaining = 0
        if finished { whenFinished() }
    }

    /// The job in flight was never written: the driver lost it, and would lose the next.
    private func lost() {
        guard let job else { return }
        Log.warning("writeback: the driver did not write frame \(job.number) back within \(Int(Self.lostAfter)) s; ending with \(recording.count) frames")
        drop()
        remaining = 0
        if finished { whenFinished() }
    }

    private func drop() {
        guard let fence = job?.fence else { return }
        job = nil   // the watch goes before its fence
        close(fence)
        overdue?.schedule(at: nil)
    }
}
