import CarouselCore

/// The surface's wl_shm buffers: two, and a third only while both are held by the compositor.
/// Buffers of an old size are retired and freed once the compositor lets go of them.
package struct ShmBufferPool {
    package static let maxBuffers = 3
    private(set) var buffers: [ShmBuffer] = []
    private var retired: [ShmBuffer] = []
    /// The buffer of the latest commit: what the next frame's damage is measured against. Nil
    /// when the next commit must damage the whole surface.
    var lastCommitted: ShmBuffer?

    /// True when a buffer can be drawn into now (a free one, or room for another).
    var hasRoom: Bool { buffers.contains { !$0.held } || buffers.count < Self.maxBuffers }

    /// A buffer the compositor does not hold, at the current size: a free one, else a new one.
    mutating func free(shm: OpaquePointer?, width: Int, height: Int) throws(DisplayError) -> ShmBuffer {
        if let free = buffers.first(where: { !$0.held }) { return free }
        guard let shm else { throw .compositor("no wl_shm") }
        let buffer = try ShmBuffer(shm: shm, width: width, height: height)
        buffers.append(buffer)
        if buffers.count == Self.maxBuffers { Log.debug("wayland: both buffers held by the compositor; a third one") }
        return buffer
    }

    /// A new size: the buffers go; those the compositor holds wait for its release.
    mutating func retireAll() {
        retired += buffers.filter(\.held)
        buffers.removeAll()
        lastCommitted = nil
    }

    mutating func freeReleased() { retired.removeAll { !$0.held } }
}

/// Requests made, for the "settled means silent" figures.
struct WaylandCounters {
    var commits = 0
    var frameCallbacks = 0
    /// Frames that came out the same as the one on screen, and were not committed.
    var unchangedFrames = 0
}
