import CarouselCore
import CDRM
import CarouselEngine
import CarouselPixels
import Glibc

/// The fallback for boards without KMS: draws straight into /dev/fb0's mapped memory.
/// fbdev has no flip events, so each frame is reported visible as soon as it is drawn; the
/// console's picture is saved at start and written back on exit.
package final class FbdevOutput: DisplayOutput {
    package var ladder = FrameLadder()
    package let path: String
    private let device: OwnedDescriptor
    private let mapping: FramebufferMapping
    private let rotator: SoftwareRotator?
    private var consoleCopy: [UInt8]
    /// A frame was written and its `presented` is posted.
    private var reporting = false
    private weak var loop: EventLoop?
    private var events: OutputEventSink?

    package init(path: String = "/dev/fb0", rotation: Int = 0) throws(DisplayError) {
        // Every throw below closes the device: `device` is dropped with it.
        let device: OwnedDescriptor
        do {
            device = try OwnedDescriptor("open") { open(path, O_RDWR | O_CLOEXEC) }
        } catch {
            let err = (error as? SystemError)?.errno ?? .ioError
            if err == .permissionDenied || err == .notPermitted { throw .permissionDenied(path: path) }
            throw .noDevice("and no framebuffer either (\(path): \(err))")
        }
        let fd = device.rawValue
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        guard ioctl(fd, UInt(FBIOGET_VSCREENINFO), &variable) == 0,
              ioctl(fd, UInt(FBIOGET_FSCREENINFO), &fixed) == 0 else {
            throw .system(call: "FBIOGET_SCREENINFO", errno: Glibc.errno, path: path)
        }
        // Only XRGB8888 layouts: the renderer draws nothing else.
        guard variable.bits_per_pixel == 32, variable.red.offset == 16, variable.green.offset == 8,
              variable.blue.offset == 0 else {
            throw .unsupported("\(path) is \(variable.bits_per_pixel) bits per pixel; carouseld draws XRGB8888 only")
        }
        let length = Int(fixed.smem_len)
        let map = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let map, map != MAP_FAILED else {
            throw .system(call: "mmap", errno: Glibc.errno, path: path)
        }
        let mapping = FramebufferMapping(memory: map, length: length, width: Int(variable.xres),
                                         height: Int(variable.yres), stride: Int(fixed.line_length))
        let (width, height, stride) = (mapping.width, mapping.height, mapping.stride)
        self.path = path; self.device = device
        let quarterTurn = rotation == 90 || rotation == 270
        rotator = SoftwareRotator(degrees: rotation, width: quarterTurn ? height : width,
                                  height: quarterTurn ? width : height)
        // One read of the visible area at start, to give the console its picture back.
        consoleCopy = [UInt8](UnsafeRawBufferPointer(start: map, count: min(length, stride * height)))
        self.mapping = mapping
    }

    package var summary: String { "\(path) (fbdev) \(mapping.width)x\(mapping.height)" + (rotator.map { ", rotation \($0.degrees)° in software" } ?? "") }
    package var size: Size? {
        rotator.map { Size(width: Double($0.width), height: Double($0.height)) }
            ?? Size(width: Double(mapping.width), height: Double(mapping.height))
    }
    package var isReady: Bool { !reporting }
    package var lastFrame: PixelBuffer? {
        blanked ? nil : PixelBuffer(base: mapping.memory, width: mapping.width, height: mapping.height, stride: mapping.stride)
    }
    private var blanked = false

    /// FBIOBLANK: powered down (the monitor sees no signal on most drivers) or unblanked.
    private func setPower(_ on: Bool) {
        guard on == blanked else { return }
        blanked = !on
        let mode = CInt(on ? FB_BLANK_UNBLANK : FB_BLANK_POWERDOWN)
        if ioctl(device.rawValue, UInt(FBIOBLANK), mode) != 0 {
            Log.warning("\(path): FBIOBLANK: \(SystemError(call: "ioctl", errno: Glibc.errno))")
        }
    }
    package var refreshInterval: Double { 1.0 / 60 }

    package func attach(to loop: EventLoop, events: @escaping (OutputEvent) -> Void) throws {
        self.loop = loop
        self.events = OutputEventSink(loop: loop, handler: events)
    }
    package func detach() { events = nil }
    package var devicePath: String { path }
    /// fbdev is the fallback: any KMS card that appears is preferred.
    package var isFirmwareFramebuffer: Bool { true }

    /// The mapped memory itself (or the rotator's picture): fbdev has one buffer, on screen.
    package func acquire() throws(DisplayError) -> PixelBuffer {
        guard !reporting else { throw .unsupported("a buffer asked for while the previous frame is being reported") }
        return rotator?.buffer ?? PixelBuffer(base: mapping.memory, width: mapping.width, height: mapping.height, stride: mapping.stride)
    }

    /// Cards are always composed; a drawn primary is on screen already (turned into the mapping
    /// first when rotated), and `presented` follows from the loop.
    package func commit(_ state: FrameState, _ mode: CommitMode) throws(DisplayError) -> CommitResult {
        guard !reporting else { throw .unsupported("a commit while the previous frame is being reported") }
        if !state.cards.isEmpty { return .compose(.noOverlayPlanes) }
        guard mode == .apply else { return .accepted }
        setPower(state.power == .on)
        guard state.power == .on, state.primary != nil else { return .accepted }
        rotator?.copy(into: mapping.memory, width: mapping.width, height: mapping.height, stride: mapping.stride)
        reporting = true
        loop?.post(to: self) { owner in
            owner.reporting = false
            owner.events?.emit(.presented(at: MonotonicClock.now()))
        }
        return .accepted
    }

    package func restore() {
        events = nil
        consoleCopy.withUnsafeBytes { saved in
            if let base = saved.baseAddress { mapping.memory.copyMemory(from: base, byteCount: saved.count) }
        }
        Log.info("restored the console picture on \(path)")
    }
}

/// /dev/fb0's memory, mapped: unmapped exactly once, when the value goes away.
private struct FramebufferMapping: ~Copyable {
    let memory: UnsafeMutableRawPointer
    let length: Int
    let width: Int
    let height: Int
    let stride: Int

    deinit { munmap(memory, length) }
}
