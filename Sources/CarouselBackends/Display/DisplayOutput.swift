import CarouselCore
import Glibc
import CarouselEngine
import CarouselPixels

/// A screen the daemon can show frames on (DRM/KMS or fbdev). Completion is reported on the
/// event loop, never from inside `present`.
package protocol DisplayOutput: AnyObject {
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
    /// The device node, e.g. /dev/dri/card0 or /dev/fb0.
    var devicePath: String { get }
    /// The KMS connector shown on (HDMI-A-1); nil where there is none (fbdev, Wayland) or no
    /// screen yet. Proof-of-play records name the screen by it.
    var connectorName: String? { get }
    /// True for a framebuffer the firmware set up (simpledrm, efifb through fbdev): a real
    /// KMS driver that loads later takes its place.
    var isFirmwareFramebuffer: Bool { get }
    /// Registers the output's descriptors (flip events, hotplug) with the loop.
    func attach(to loop: EventLoop) throws
    /// Takes them out again: the output is being replaced.
    func detach()
    /// Draws a frame into a free buffer with `draw` and queues it for display. The buffer is
    /// in screen orientation (rotation is applied afterwards) and holds whatever was drawn into
    /// it last; renderers only write to it (scanout memory is often uncached).
    func present(_ draw: (PixelBuffer) -> Void) throws(DisplayError)
    /// Overlay planes cards may go on in the next frame; nil: every frame is composed (no
    /// atomic KMS or no overlays, `planes = "off"`, rotated, not lit yet; fbdev, Wayland).
    var planeCapabilities: PlaneCapabilities? { get }
    /// Shows `cards` on overlay planes, bottom to top, over a primary plane showing what
    /// `drawBackground` draws into a free buffer (the background and dots; nil: the primary
    /// plane keeps its picture, and the commit leaves it out).
    /// Returns nil once queued (completion comes as for `present`), or why the driver refused
    /// them (nothing changed on screen: compose the frame instead).
    func present(cards: [PlaneCard], drawBackground: ((PixelBuffer) -> Void)?) throws(DisplayError) -> String?
    /// While the cards are on overlay planes and nothing moves: copies `cards` (the next page
    /// change's, the most likely first) into plane buffers now, not in that page change's frames.
    func prepare(cards: [Card]) throws(DisplayError)
    /// `ctl writeback`: the next `frames` frames as the display engine composed them, read back
    /// into the directory `directory` (owned from here on). Says what it does, or why not.
    func startWriteback(frames: Int, directory: Int32) throws(DisplayError) -> String
    /// Gives the screen back as it was before the daemon started (console on exit).
    func restore()
    /// Backend figures for the SIGUSR1 stats line (Wayland: commits and frame callbacks).
    var statistics: String? { get }
    /// The frame on screen now, as scanned out (`ctl screenshot`); nil while dark. Valid until
    /// the next `present`.
    var lastFrame: PixelBuffer? { get }
    /// Puts the screen to sleep (`on == false`: no signal, so the monitor goes to standby;
    /// nothing is presented meanwhile) or wakes it (the next frame lights it again).
    func setPower(_ on: Bool)
    /// The DRM connector's object id, for matching a CEC adapter to its connector
    /// (CEC_ADAP_G_CONNECTOR_INFO); nil off DRM and while no screen is connected.
    var connectorID: UInt32? { get }
}

extension DisplayOutput {
    package var statistics: String? { nil }
    package var connectorID: UInt32? { nil }
    package var lastFrame: PixelBuffer? { nil }
    package var connectorName: String? { nil }
    package func setPower(_ on: Bool) {}
    package var planeCapabilities: PlaneCapabilities? { nil }
    package func startWriteback(frames: Int, directory: Int32) throws(DisplayError) -> String {
        close(directory)
        throw .unsupported("\(devicePath) has no writeback connector")
    }
    package func present(cards: [PlaneCard], drawBackground: ((PixelBuffer) -> Void)?) throws(DisplayError) -> String? {
        "this output has no overlay planes"
    }
    package func prepare(cards: [Card]) throws(DisplayError) {}
}
