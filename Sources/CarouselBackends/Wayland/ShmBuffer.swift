import CarouselPixels
import CWayland
import Glibc

/// One wl_shm XRGB8888 buffer: ours to draw into while the compositor does not hold it, the
/// compositor's to read from commit until `wl_buffer.release`. Either a frame in its own
/// `SharedMemory`, or a view of a panned strip's window from one column (`ShmWindow`).
package final class ShmBuffer {
    package let proxy: OpaquePointer
    /// The memory it shows, kept mapped while the buffer lives.
    private let memory: SharedMemory
    package let pixels: PixelBuffer
    /// Between commit and release: must not be drawn into.
    package var held = false

    /// A frame of its own.
    package convenience init(shm: OpaquePointer, width: Int, height: Int) throws(DisplayError) {
        let memory = try SharedMemory(width: width, height: height)
        let pool = wl_shm_create_pool(shm, memory.file.rawValue, Int32(memory.byteCount))
        defer { wl_shm_pool_destroy(pool) }
        try self.init(pool: pool, memory: memory, column: 0, width: width)
    }

    /// `width` pixels of `memory`'s rows from `column` on, made from `pool` (over `memory`).
    init(pool: OpaquePointer?, memory: SharedMemory, column: Int, width: Int) throws(DisplayError) {
        let whole = memory.pixels
        guard let buffer = wl_shm_pool_create_buffer(pool, Int32(column * 4), Int32(width), Int32(whole.height),
                                                     Int32(whole.stride), WL_SHM_FORMAT_XRGB8888.rawValue) else {
            throw .compositor("wl_shm_pool.create_buffer failed for \(width)x\(whole.height) at column \(column)")
        }
        proxy = buffer
        self.memory = memory
        pixels = PixelBuffer(base: whole.base + column * 4, width: width, height: whole.height, stride: whole.stride)
        wl_buffer_add_listener(buffer, Self.listener, listenerData(self))
    }

    deinit { wl_buffer_destroy(proxy) }

    package var width: Int { pixels.width }
    package var height: Int { pixels.height }

    nonisolated(unsafe) private static let listener = listenerTable(wl_buffer_listener(
        release: { data, _ in listenerOwner(data, as: ShmBuffer.self)?.held = false }))
}
