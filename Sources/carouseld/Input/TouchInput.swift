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
    private let udev: OpaquePointer
    private let libinput: OpaquePointer
    /// libinput keeps the interface pointer for its whole life, so it lives on the heap with it.
    private let interface: UnsafeMutablePointer<libinput_interface>
    private let opener: Unmanaged<DeviceOpener>
    private var translator: InputTranslator
    /// The size libinput transforms touch positions to.
    private var panel: Size { translator.mapping.panel }

    /// `screen` is the logical screen (the engine's viewport); `settings.rotation` maps the panel onto it.
    init(settings: ShellSettings, screen: Size) throws {
        guard let udev = udev_new() else { throw InputError(description: "input: udev_new failed") }
        let interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        interface.initialize(to: DeviceOpener.interface)
        let opener = Unmanaged.passRetained(DeviceOpener())
        guard let libinput = libinput_udev_create_context(interface, opener.toOpaque(), udev) else {
            opener.release(); interface.deallocate(); udev_unref(udev)
            throw InputError(description: "input: libinput_udev_create_context failed")
        }
        libinput_log_set_handler(libinput, libinputLogHandler)
        if libinput_udev_assign_seat(libinput, settings.seat) != 0 {
            libinput_unref(libinput); opener.release(); interface.deallocate(); udev_unref(udev)
            throw InputError(description: "input: cannot assign seat \"\(settings.seat)\" (is systemd-udevd running?)")
        }
        self.udev = udev; self.libinput = libinput; self.interface = interface; self.opener = opener
        fd = libinput_get_fd(libinput)
        translator = InputTranslator(settings: settings, screen: screen)
        // Assigning the seat queued one DEVICE_ADDED per device already present.
        _ = dispatch()
        translator.startupFinished()
    }

    deinit {
        libinput_unref(libinput)
        udev_unref(udev)
        opener.release()
        interface.deallocate()
    }

    /// After a config reload or a mode change: rotation, screen size and the touch/keyboard/pointer
    /// switches take effect at once. A changed `seat` needs a new `InputSource`.
    func reconfigure(settings: ShellSettings, screen: Size) {
        translator.reconfigure(settings: settings, screen: screen)
    }

    /// Reads everything libinput has and returns what the engine must do, in order.
    func dispatch() -> [InputAction] {
        let rc = libinput_dispatch(libinput)
        if rc < 0 { Log.warning("input: libinput_dispatch: \(describe(errno: -rc))") }
        var batch: [DeviceEvent] = []
        while let event = libinput_get_event(libinput) {
            if let deviceEvent = LibinputEvents.read(event, panel: panel) { batch.append(deviceEvent) }
            libinput_event_destroy(event)
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
