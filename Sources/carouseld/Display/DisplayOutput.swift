import CarouselEngine

/// The pixels of one frame to draw: XRGB8888, `stride` bytes per row, in screen orientation
/// (any rotation is applied after drawing).
struct FrameTarget {
    var pixels: UnsafeMutableRawPointer
    var width: Int
    var height: Int
    var stride: Int
    /// Which of the output's buffers this is (0..<bufferCount), for renderers that track
    /// damage per buffer; the contents are whatever was drawn into that buffer last time.
    var bufferIndex: Int
    var bufferCount: Int
}

/// A screen the daemon can show frames on (DRM/KMS or fbdev). Completion is reported on the
/// event loop, never from inside `present`.
protocol DisplayOutput: AnyObject {
    /// "card0 Virtual-1 1280x800@60 atomic", for logs.
    var summary: String { get }
    /// The picture size after rotation; nil while no screen is connected.
    var size: Size? { get }
    /// True when a frame may be presented now: a screen is up and no flip is pending.
    var canPresent: Bool { get }
    /// Seconds between refreshes of the current mode.
    var refreshInterval: Double { get }
    /// Called with the monotonic time at which a presented frame became visible.
    var onPresented: ((Double) -> Void)? { get set }
    /// Called when the screen appears, changes mode or disappears: the next frame must be
    /// drawn in full at the new `size`.
    var onScreenChanged: (() -> Void)? { get set }
    /// Registers the output's descriptors (flip events, hotplug) with the loop.
    func attach(to loop: EventLoop) throws
    /// Draws a frame into a free buffer with `draw` and queues it for display.
    func present(_ draw: (FrameTarget) -> Void) throws(DisplayError)
    /// Gives the screen back as it was before the daemon started (console on exit).
    func restore()
}
