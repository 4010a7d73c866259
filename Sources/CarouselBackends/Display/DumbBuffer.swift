import CarouselCore
import CarouselPixels
import CDRM
import Glibc

/// One XRGB8888 scanout buffer in CPU-mapped "dumb" memory, registered as a DRM framebuffer.
/// Like weston's drm_fb_create_dumb, each creation step is undone if a later one fails;
/// everything is released in deinit, while the card it holds is still open.
package final class DumbBuffer: PlaneBuffer, ScanoutBuffer {
    package let width: Int
    package let height: Int
    /// Bytes per row, as chosen by the driver.
    package let stride: Int
    package let framebufferID: UInt32
    package let pixels: UnsafeMutableRawPointer
    private let card: DrmCard
    /// The GEM handle, for framebuffers over part of the buffer (`FramebufferView`).
    let handle: UInt32
    private let byteCount: Int

    package init(card: DrmCard, width: Int, height: Int) throws(DisplayError) {
        let fd = card.fd
        self.card = card; self.width = width; self.height = height
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        guard drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size) == 0 else {
            throw .system(call: "CREATE_DUMB \(width)x\(height)", errno: Glibc.errno, path: "dumb buffer")
        }
        var fb: UInt32 = 0
        let added = Self.addFramebuffer(fd: fd, handle: handle, width: width, height: height, pitch: pitch, offset: 0, into: &fb)
        guard added == 0 else {
            let err = Glibc.errno
            drmModeDestroyDumbBuffer(fd, handle)
            throw .system(call: "drmModeAddFB2", errno: err, path: "dumb buffer")
        }
        var offset: UInt64 = 0
        guard drmModeMapDumbBuffer(fd, handle, &offset) == 0 else {
            let err = Glibc.errno
            drmModeRmFB(fd, fb); drmModeDestroyDumbBuffer(fd, handle)
            throw .system(call: "MAP_DUMB", errno: err, path: "dumb buffer")
        }
        let map = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
        guard let map, map != MAP_FAILED else {
            let err = Glibc.errno
            drmModeRmFB(fd, fb); drmModeDestroyDumbBuffer(fd, handle)
            throw .system(call: "mmap", errno: err, path: "dumb buffer")
        }
        self.handle = handle; self.stride = Int(pitch); self.byteCount = Int(size)
        self.framebufferID = fb; self.pixels = map
    }

    /// Faults every page of `buffers` in now, in the calling thread, before the first frames are
    /// drawn into them: at a screen's opening, before the carousels and their decode threads are
    /// made. The driver gives a dumb buffer its memory at its first page fault, and faults taken
    /// beside the first decodes competed with them and held the first frame back (the figures
    /// are in docs/testing.md). Logged, with its kernel time.
    package static func faultIn(_ buffers: [DumbBuffer]) {
        let started = MonotonicClock.now(), kernelBefore = threadKernelTime()
        withMappings(of: buffers) { starts, lengths, page in cdrm_fault_in(starts, lengths, Int32(buffers.count), page) }
        logFaultIn(buffers, seconds: MonotonicClock.now() - started, kernel: threadKernelTime() - kernelBefore, how: "at open")
    }

    /// Faults every page of `buffers` in from a child process (`cdrm_fault_in_child`), reaped by
    /// a thread that waits for it, while the daemon goes on: for buffers made while frames are
    /// shown (the panned strip's windows). The child's faults fill the buffers for the daemon too;
    /// its own faults then only map them. If fork fails, the first frames fault them in.
    package static func faultInAhead(_ buffers: [DumbBuffer]) {
        let started = MonotonicClock.now()
        let pid = withMappings(of: buffers) { starts, lengths, page in
            cdrm_fault_in_child(starts, lengths, Int32(buffers.count), page)
        }
        guard pid > 0 else { return }
        DetachedThread.start(name: "carouseld-reap") {
            var status: Int32 = 0
            var usage = rusage()
            while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
            logFaultIn(buffers, seconds: MonotonicClock.now() - started, kernel: seconds(usage.ru_stime), how: "ahead")
        }
    }

    private static func withMappings<Result>(of buffers: [DumbBuffer],
                                             _ body: ([UnsafeMutableRawPointer?], [Int], Int) -> Result) -> Result {
        body(buffers.map(\.pixels), buffers.map(\.byteCount), Int(sysconf(Int32(_SC_PAGESIZE))))
    }

    private static func logFaultIn(_ buffers: [DumbBuffer], seconds: Double, kernel: Double, how: String) {
        let megabytes = buffers.map(\.byteCount).reduce(0, +) >> 20
        Log.info("\(buffers.count) buffers (\(megabytes) MB) faulted in \(how) in "
                 + formatted("%.2f s (%.2f s in the kernel)", seconds, kernel))
    }

    /// The calling thread's kernel time: getrusage(RUSAGE_THREAD), whose constant (1) Glibc's
    /// module leaves out (it needs _GNU_SOURCE).
    private static func threadKernelTime() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)
        return seconds(usage.ru_stime)
    }

    private static func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }

    /// Registers `width` × `height` XRGB8888 pixels of the buffer `handle`, from byte `offset`
    /// with `pitch` bytes a row, as a framebuffer (drmModeAddFB2); 0 or -1 with errno set.
    static func addFramebuffer(fd: Int32, handle: UInt32, width: Int, height: Int, pitch: UInt32, offset: UInt32,
                               into fb: inout UInt32) -> Int32 {
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (offset, 0, 0, 0)
        return withUnsafeMutablePointer(to: &handles) { h in
            withUnsafeMutablePointer(to: &pitches) { p in
                withUnsafeMutablePointer(to: &offsets) { o in
                    drmModeAddFB2(fd, UInt32(width), UInt32(height), cdrm_format_xrgb8888(),
                                  UnsafeMutableRawPointer(h).assumingMemoryBound(to: UInt32.self),
                                  UnsafeMutableRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                  UnsafeMutableRawPointer(o).assumingMemoryBound(to: UInt32.self), &fb, 0)
                }
            }
        }
    }

    /// The buffer's pixels, to draw into or read.
    package var pixelBuffer: PixelBuffer { PixelBuffer(base: pixels, width: width, height: height, stride: stride) }

    deinit {
        munmap(pixels, byteCount)
        drmModeRmFB(card.fd, framebufferID)
        drmModeDestroyDumbBuffer(card.fd, handle)
    }
}
