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

    /// Faults every page of `buffers` in ahead of the first frames drawn into them, from a child
    /// process (`cdrm_fault_in_child`), reaped by a thread that waits for it. The driver gives a
    /// dumb buffer its memory at its first page fault, and that can be slow: on bochs under TCG at
    /// boot, 0.02-1.3 s of kernel time for a 4 MB buffer, which fell in the first frame's compose.
    /// A thread of the daemon only moved the wait: its faults held the process's memory map lock,
    /// and the carousels' making (thread stacks, large allocations) waited a second behind them.
    /// The child's faults fill the buffers for the daemon too; its own faults then only map them.
    /// If fork fails, the first frames fault them in as before.
    package static func faultInAhead(_ buffers: [DumbBuffer]) {
        let starts: [UnsafeMutableRawPointer?] = buffers.map(\.pixels)
        let lengths = buffers.map(\.byteCount)
        let pid = cdrm_fault_in_child(starts, lengths, Int32(buffers.count), Int(sysconf(Int32(_SC_PAGESIZE))))
        guard pid > 0 else { return }
        DetachedThread.start(name: "carouseld-reap") {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }

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
