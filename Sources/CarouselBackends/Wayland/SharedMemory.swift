import CarouselCore
import CarouselPixels
import CWayland
import Glibc

/// An XRGB8888 frame in a memfd, mapped shared: what a wl_shm buffer is made of (the
/// compositor maps the same file). Unmapped when it goes away; the file is kept open only as
/// long as its owner needs to hand it over.
package final class SharedMemory {
    package let pixels: PixelBuffer
    package let byteCount: Int
    /// The memfd, for `wl_shm.create_pool` (libwayland duplicates it when the request is queued).
    package let file: OwnedDescriptor

    /// `padding`: bytes after the frame (a window of the panned strip: its last column's view
    /// ends past the frame, as wl_shm counts a view's size).
    package init(width: Int, height: Int, padding: Int = 0) throws(DisplayError) {
        let stride = width * 4, byteCount = stride * height + padding
        let file = try Self.memfd(byteCount, for: "a \(width)x\(height) frame")
        guard let memory = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, file.rawValue, 0),
              memory != MAP_FAILED else {
            throw .system(call: "mmap", errno: Glibc.errno, path: "memfd")
        }
        self.file = file
        self.byteCount = byteCount
        pixels = PixelBuffer(base: memory, width: width, height: height, stride: stride)
    }

    private static func memfd(_ byteCount: Int, for what: String) throws(DisplayError) -> OwnedDescriptor {
        do {
            let file = try OwnedDescriptor("memfd_create") { carouseld_memfd("carouseld-shm") }
            try syscall("ftruncate") { ftruncate(file.rawValue, off_t(byteCount)) }
            return file
        } catch {
            throw .compositor("shared memory for \(what): \(error)")
        }
    }

    deinit { munmap(pixels.base, byteCount) }
}
