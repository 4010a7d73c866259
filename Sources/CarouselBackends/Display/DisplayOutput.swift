import CarouselCore
import Glibc
import CarouselEngine
import CarouselPixels

/// A screen the daemon can show frames on (DRM/KMS, fbdev or a Wayland window): a frame is a
/// `FrameState` drawn into an acquired buffer, then tested or committed. What happens to it is
/// reported as `OutputEvent`s on the event loop, never from inside `commit`.
package protocol DisplayOutput: AnyObject {
    /// "card0 Virtual-1 1280x800@60 atomic", for logs.
    var summary: String { get }
    /// The picture size after rotation; nil while no screen is connected.
    var size: Size? { get }
    /// True when a state may be committed now: a screen is up and nothing is queued.
    var isReady: Bool { get }
    /// Seconds between refreshes of the current mode.
    var refreshInterval: Double { get }
    /// The device node, e.g. /dev/dri/card0 or /dev/fb0.
    var devicePath: String { get }
    /// The KMS connector shown on (HDMI-A-1); nil where there is none (fbdev, Wayland) or no
    /// screen yet. Proof-of-play records name the screen by it.
    var connectorName: String? { get }
    /// True for a framebuffer the firmware set up (simpledrm, efifb through fbdev): a real
    /// KMS driver that loads later takes its place.
    var isFirmwareFramebuffer: Bool { get }
    /// Registers the output's descriptors (flip events) with the loop; `events` hears what it
    /// reports until `detach`.
    func attach(to loop: EventLoop, events: @escaping (OutputEvent) -> Void) throws
    /// Takes them out again: the output is being replaced.
    func detach()
    /// udev said a DRM card's connectors changed (the process's one monitor, `DeviceManager`).
    func connectorsChanged()
    /// A free buffer to draw the next frame into, in screen orientation (rotation is applied at
    /// commit); throws while the output is not ready. It holds whatever was drawn into it last, and
    /// renderers only write to it (scanout memory is often uncached).
    func acquire() throws(DisplayError) -> PixelBuffer
    /// A free window of the panned strip, `width` × `height`, to draw a `PanWindow` into; nil when
    /// this output cannot pan (frames are composed). Throws while the output is not ready.
    func acquireWide(width: Int, height: Int) throws(DisplayError) -> PixelBuffer?
    /// Tests or applies `state` (see `FrameState`). Throws when the output is not ready or the
    /// driver fails; offered cards the planes cannot take come back as `.compose(reason)`.
    func commit(_ state: FrameState, _ mode: CommitMode) throws(DisplayError) -> CommitResult
    /// `ctl writeback`: the next `frames` frames as the display engine composed them, read back
    /// into the directory `directory` (owned from here on). Says what it does, or why not.
    func startWriteback(frames: Int, directory: Int32) throws(DisplayError) -> String
    /// Gives the screen back as it was before the daemon started (console on exit).
    func restore()
    /// Backend figures for the SIGUSR1 stats line (Wayland: commits and frame callbacks).
    var statistics: String? { get }
    /// The frame on screen now, as scanned out (`ctl screenshot`); nil while dark. Valid until
    /// the next `commit`.
    var lastFrame: PixelBuffer? { get }
    /// The DRM connector's object id, for matching a CEC adapter to its connector
    /// (CEC_ADAP_G_CONNECTOR_INFO); nil off DRM and while no screen is connected.
    var connectorID: UInt32? { get }
    /// How this output shows a layout, and what it refused (`FrameLadder`).
    var ladder: FrameLadder { get set }
}

extension DisplayOutput {
    /// A KMS output probes its card's connectors again; other outputs have none.
    package func connectorsChanged() {}
    package func acquireWide(width: Int, height: Int) throws(DisplayError) -> PixelBuffer? { nil }
    package var statistics: String? { nil }
    package var connectorID: UInt32? { nil }
    package var lastFrame: PixelBuffer? { nil }
    package var connectorName: String? { nil }
    package func startWriteback(frames: Int, directory: Int32) throws(DisplayError) -> String {
        close(directory)
        throw .unsupported("\(devicePath) has no writeback connector")
    }
}
