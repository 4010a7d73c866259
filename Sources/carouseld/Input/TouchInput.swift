import CarouselEngine
import CInput
import Glibc

/// Why live input could not start.
struct InputError: Error, CustomStringConvertible {
    var description: String
}

/// Live input: libinput's udev backend on the configured seat.
///
/// The daemon adds `fd` to its event loop and calls `dispatch()` whenever it is readable,
/// then applies each returned action with `engine.apply(_:)`. Devices may come and go at any
/// time; a seat without a touch device is normal (the carousel runs as a slideshow).
final class InputSource {
    /// libinput's epoll fd: readable when `dispatch()` has work.
    let fd: Int32
    private let libinput: CHandle<OpaquePointer>
    private var translator: InputTranslator
    /// The size libinput transforms touch positions to.
    private var panel: Size { translator.mapping.panel }

    /// `screen` is the logical screen (the engine's viewport); `settings.rotation` maps the panel onto it.
    init(settings: ShellSettings, screen: Size) throws {
        // libinput takes its own reference on the udev context: ours goes at the end of init.
        guard let udev = CHandle(udev_new(), release: { _ = udev_unref($0) }) else {
            throw InputError(description: "input: udev_new failed")
        }
        guard let libinput = Self.makeContext(udev: udev.pointer) else {
            throw InputError(description: "input: libinput_udev_create_context failed")
        }
        libinput_log_set_handler(libinput.pointer, libinputLogHandler)
        if libinput_udev_assign_seat(libinput.pointer, settings.seat) != 0 {
            throw InputError(description: "input: cannot assign seat \"\(settings.seat)\" (is systemd-udevd running?)")
        }
        fd = libinput_get_fd(libinput.pointer)
        self.libinput = libinput
        translator = InputTranslator(settings: settings, screen: screen)
        // Assigning the seat queued one DEVICE_ADDED per device already present.
        _ = dispatch()
        translator.startupFinished()
    }

    /// A libinput context whose device opener and interface live exactly as long as it does:
    /// libinput calls back into them until (and while) it is unreferenced.
    private static func makeContext(udev: OpaquePointer) -> CHandle<OpaquePointer>? {
        let interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        interface.initialize(to: DeviceOpener.interface)
        let opener = Unmanaged.passRetained(DeviceOpener())
        guard let context = libinput_udev_create_context(interface, opener.toOpaque(), udev) else {
            opener.release(); interface.deallocate()
            return nil
        }
        return CHandle(context) { context in
            libinput_unref(context)
            opener.release()
            interface.deallocate()
        }
    }

    /// After a config reload or a mode change: rotation, screen size and the touch/keyboard/pointer
    /// switches take effect at once. A changed `seat` needs a new `InputSource`.
    func reconfigure(settings: ShellSettings, screen: Size) {
        translator.reconfigure(settings: settings, screen: screen)
    }

    /// Reads everything libinput has and returns what the engine must do, in order.
    func dispatch() -> [InputAction] {
        let rc = libinput_dispatch(libinput.pointer)
        if rc < 0 { Log.warning("input: libinput_dispatch: \(describe(errno: -rc))") }
        var batch: [DeviceEvent] = []
        while let event = CHandle(libinput_get_event(libinput.pointer), release: libinput_event_destroy) {
            if let deviceEvent = LibinputEvents.read(event.pointer, panel: panel) { batch.append(deviceEvent) }
        }
        return translator.translate(batch)
    }
}

/// Routes libinput's own messages into carouseld's log (one line each, journald priorities).
private let libinputLogHandler: libinput_log_handler = { _, priority, format, args in
    guard let format, let args else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, args)
    let length = buffer.firstIndex(of: 0) ?? buffer.count
    var message = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    while message.last?.isNewline == true { message.removeLast() }
    switch priority {
    case LIBINPUT_LOG_PRIORITY_ERROR: Log.error("libinput: \(message)")
    case LIBINPUT_LOG_PRIORITY_INFO: Log.info("libinput: \(message)")
    default: Log.debug("libinput: \(message)")
    }
}
