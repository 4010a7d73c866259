import CWayland
import Glibc

/// One wl_shm XRGB8888 buffer in its own memfd: ours to draw into while the compositor does
/// not hold it, the compositor's to read from commit until `wl_buffer.release`.
final class ShmBuffer {
    let proxy: OpaquePointer
    let pixels: PixelBuffer
    private let byteCount: Int
    /// Between commit and release: must not be drawn into.
    var held = false

    init(shm: OpaquePointer, width: Int, height: Int) throws(DisplayError) {
        let stride = width * 4, byteCount = stride * height
        let file = try Self.sharedMemory(byteCount, for: "a \(width)x\(height) buffer")
        guard let memory = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, file.rawValue, 0),
              memory != MAP_FAILED else {
            throw .system(call: "mmap", errno: Glibc.errno, path: "wl_shm buffer")
        }
        // libwayland duplicates the descriptor when it queues the request: ours closes after init.
        let pool = wl_shm_create_pool(shm, file.rawValue, Int32(byteCount))
        guard let buffer = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride),
                                                     WL_SHM_FORMAT_XRGB8888.rawValue) else {
            wl_shm_pool_destroy(pool)
            munmap(memory, byteCount)
            throw .compositor("wl_shm_pool.create_buffer failed")
        }
        wl_shm_pool_destroy(pool)
        proxy = buffer
        self.byteCount = byteCount
        pixels = PixelBuffer(base: memory, width: width, height: height, stride: stride)
        wl_buffer_add_listener(buffer, Self.listener, listenerData(self))
    }

    /// A memfd of `byteCount` bytes.
    private static func sharedMemory(_ byteCount: Int, for what: String) throws(DisplayError) -> OwnedDescriptor {
        do {
            let file = try OwnedDescriptor("memfd_create") { carouseld_memfd("carouseld-shm") }
            try syscall("ftruncate") { ftruncate(file.rawValue, off_t(byteCount)) }
            return file
        } catch {
            throw .compositor("shared memory for \(what): \(error)")
        }
    }

    deinit {
        wl_buffer_destroy(proxy)
        munmap(pixels.base, byteCount)
    }

    var width: Int { pixels.width }
    var height: Int { pixels.height }

    nonisolated(unsafe) private static let listener = listenerTable(wl_buffer_listener(
        release: { data, _ in listenerOwner(data, as: ShmBuffer.self)?.held = false }))
}
