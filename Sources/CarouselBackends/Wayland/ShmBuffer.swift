import CarouselPixels
import CWayland
import Glibc

/// One wl_shm XRGB8888 buffer over its own `SharedMemory`: ours to draw into while the
/// compositor does not hold it, the compositor's to read from commit until `wl_buffer.release`.
package final class ShmBuffer {
    package let proxy: OpaquePointer
    private let memory: SharedMemory
    /// Between commit and release: must not be drawn into.
    package var held = false

    package init(shm: OpaquePointer, width: Int, height: Int) throws(DisplayError) {
        memory = try SharedMemory(width: width, height: height)
        let pool = wl_shm_create_pool(shm, memory.file.rawValue, Int32(memory.byteCount))
        defer { wl_shm_pool_destroy(pool) }
        guard let buffer = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(width * 4),
                                                     WL_SHM_FORMAT_XRGB8888.rawValue) else {
            throw .compositor("wl_shm_pool.create_buffer failed for \(width)x\(height)")
        }
        proxy = buffer
        wl_buffer_add_listener(buffer, Self.listener, listenerData(self))
    }

    deinit { wl_buffer_destroy(proxy) }

    package var pixels: PixelBuffer { memory.pixels }
    package var width: Int { memory.pixels.width }
    package var height: Int { memory.pixels.height }

    nonisolated(unsafe) private static let listener = listenerTable(wl_buffer_listener(
        release: { data, _ in listenerOwner(data, as: ShmBuffer.self)?.held = false }))
}
