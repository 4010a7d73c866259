import CarouselConfig
import CarouselCore
import CarouselEngine
import CLinux

/// Turns device events into engine actions: touch changes gathered per frame and rotated onto
/// the logical screen, Left/Right keys into pages, a left-button pointer drag into a finger,
/// and a device lost mid-drag into a cancel. Pure: the live libinput path and the replay both
/// use it, one batch at a time.
package struct InputTranslator {
    package private(set) var mapping: PanelMapping
    /// Which kinds of input are used (`touch`, `keyboard`, `pointer` in config).
    private var use: (touch: Bool, keyboard: Bool, pointer: Bool)

    private var devices: [Int: (name: String, capabilities: DeviceCapabilities)] = [:]
    /// The fingers on the glass by seat slot, each with all its state (`Contact`): the one record
    /// of them. Every touch frame carries their count (`TouchFrame.contactsDown`).
    private var contacts: [Int: Contact] = [:]
    /// Seconds a contact may send nothing before it counts as lifted (`touch_timeout`); 0: never.
    private var touchTimeout: Double
    /// Touch changes since the last TOUCH_FRAME.
    private var pending: [TouchSample] = []
    private var pointer: PointerFinger
    private var touchDeviceCount = 0
    private var started = false
    /// The daemon tells the journal about devices; a replay has no real devices to talk about.
    private let announce: Bool

    package init(settings: ShellSettings, screen: Size, announceDevices: Bool = true) {
        mapping = PanelMapping(screen: screen, rotation: settings.rotation)
        use = (settings.input.touch, settings.input.keyboard, settings.input.pointer)
        pointer = PointerFinger(mapping: mapping)
        announce = announceDevices
        touchTimeout = settings.input.touchTimeout
    }

    /// A reloaded config or a new screen size: new rotation, size and switches; the devices stay.
    package mutating func reconfigure(settings: ShellSettings, screen: Size) {
        mapping = PanelMapping(screen: screen, rotation: settings.rotation)
        use = (settings.input.touch, settings.input.keyboard, settings.input.pointer)
        pointer = PointerFinger(mapping: mapping)
        touchTimeout = settings.input.touchTimeout
    }

    private func say(_ message: String, notice: Bool = false) {
        if !announce { Log.debug(message) } else if notice { Log.notice(message) } else { Log.info(message) }
    }

    /// Names the state once the initial devices are known: "no touch device" is normal (a slideshow).
    /// `quiet`: another translator of the seat says it (several screens).
    package mutating func startupFinished(quiet: Bool = false) {
        started = true
        guard !quiet else { return }
        if !use.touch {
            say("input: touch is off in config (touch = false)")
        } else if touchDeviceCount == 0 {
            say("no touch device; running as a slideshow", notice: true)
        }
    }

    /// Translates one batch: everything one `libinput_dispatch` (or one recorded SYN_REPORT) produced.
    /// A device removed within the batch had its touches lifted by libinput just before; those lifts
    /// are not releases (they would fling), so they are dropped and the drag is cancelled instead.
    package mutating func translate(_ batch: [DeviceEvent]) -> [InputAction] {
        let removedInBatch = Set(batch.compactMap { event -> Int? in
            if case .removed(let device, _) = event { return device } else { return nil }
        })
        var actions: [InputAction] = []
        for event in batch {
            switch event {
            case .added(let device, let name, let capabilities):
                deviceAdded(device, name: name, capabilities: capabilities)
            case .removed(let device, let time):
                deviceRemoved(device, time: time, into: &actions)
            case .touchDown(let device, let slot, let px, let py, let time):
                // A down starts the contact anew, a timed-out one too.
                guard use.touch else { break }
                let p = mapping.toScreen(panelX: px, panelY: py)
                contacts[slot] = Contact(device: device, position: p, lastEvent: time)
                pending.append(TouchSample(slot: slot, phase: .down, x: p.x, y: p.y))
            case .touchMotion(let device, let slot, let px, let py, let time):
                guard use.touch, contacts[slot]?.state != .timedOut else { break }
                let p = mapping.toScreen(panelX: px, panelY: py)
                contacts[slot] = Contact(device: device, position: p, lastEvent: time)
                pending.append(TouchSample(slot: slot, phase: .move, x: p.x, y: p.y))
            case .touchUp(let device, let slot, _), .touchCancel(let device, let slot, _):
                guard use.touch, !removedInBatch.contains(device) else { break }
                if case .touchCancel = event { lift(slot, phase: .cancel) } else { lift(slot, phase: .up) }
            case .touchesCancelled(let device, _):
                guard use.touch, !removedInBatch.contains(device) else { break }
                for slot in contacts.keys.sorted() where contacts[slot]?.device == device { lift(slot, phase: .cancel) }
            case .touchFrame(_, let time):
                flushFrame(time: time, into: &actions)
            case .key(_, let code, let pressed, let time):
                guard use.keyboard, pressed else { break }
                if code == Int(KEY_LEFT) { actions.append(.page(-1, time: time)) }
                if code == Int(KEY_RIGHT) { actions.append(.page(1, time: time)) }
            case .pointerMotion(_, let dx, let dy, let time):
                guard use.pointer else { break }
                if let frame = pointer.motion(dx: dx, dy: dy, time: time) { actions.append(.touch(withTouches(frame))) }
            case .pointerMotionAbsolute(_, let px, let py, let time):
                guard use.pointer else { break }
                if let frame = pointer.absolute(panelX: px, panelY: py, time: time) { actions.append(.touch(withTouches(frame))) }
            case .pointerButton(let device, let button, let pressed, let time):
                guard use.pointer else { break }
                if let frame = pointer.button(device: device, button: button, pressed: pressed, time: time) {
                    actions.append(.touch(withTouches(frame)))
                }
            }
        }
        return actions
    }

    /// When a contact down will have sent nothing for `touch_timeout`; nil if none (or off).
    package var nextStuckDeadline: Double? {
        guard touchTimeout > 0 else { return nil }
        return contacts.values.filter { $0.state == .touching }.map(\.lastEvent).min().map { $0 + touchTimeout }
    }

    /// Lifts the contacts that sent nothing for `touch_timeout` by `now`, where they last were,
    /// with one warning each naming the device and the slot; their later events are ignored
    /// until they lift. The strip settles as after any lift that rested (no fling).
    package mutating func expireStuckTouches(now: Double) -> [InputAction] {
        guard touchTimeout > 0 else { return [] }
        let expired = contacts.filter { $0.value.state == .touching && now - $0.value.lastEvent >= touchTimeout }.keys.sorted()
        guard !expired.isEmpty else { return [] }
        var samples: [TouchSample] = []
        for slot in expired {
            guard let contact = contacts[slot] else { continue }
            let name = devices[contact.device]?.name ?? "device \(contact.device)"
            Log.warning("input: \"\(name)\" slot \(slot): no event for \(formatted("%g", touchTimeout)) s; "
                        + "treating the contact as lifted (touch_timeout) and ignoring it until it lifts")
            contacts[slot]?.state = .timedOut
            pending.removeAll { $0.slot == slot }
            samples.append(TouchSample(slot: slot, phase: .up, x: contact.position.x, y: contact.position.y))
        }
        return [.touch(TouchFrame(time: now, samples: samples, contactsDown: contactsDown))]
    }

    /// A contact ends (`.up` or `.cancel`). A timed-out contact was lifted then: its real lift
    /// is dropped, and the slot counts again.
    private mutating func lift(_ slot: Int, phase: TouchPhase) {
        let contact = contacts.removeValue(forKey: slot)
        guard contact?.state != .timedOut else { return }
        let p = contact?.position ?? (x: mapping.screen.width / 2, y: mapping.screen.height / 2)
        pending.append(TouchSample(slot: slot, phase: phase, x: p.x, y: p.y))
    }

    private mutating func flushFrame(time: Double, into actions: inout [InputAction]) {
        guard !pending.isEmpty else { return }
        actions.append(.touch(TouchFrame(time: time, samples: pending, contactsDown: contactsDown)))
        pending.removeAll()
    }

    /// The fingers on the glass now, and the pointer's left button held as one more.
    private var contactsDown: Int {
        contacts.values.filter { $0.state == .touching }.count + (pointer.heldBy == nil ? 0 : 1)
    }

    /// A pointer's frame, counting the touches down beside it.
    private func withTouches(_ frame: TouchFrame) -> TouchFrame {
        var frame = frame
        frame.contactsDown = contactsDown
        return frame
    }

    private mutating func deviceAdded(_ device: Int, name: String, capabilities: DeviceCapabilities) {
        devices[device] = (name, capabilities)
        say("input: \"\(name)\" added (\(capabilities))")
        guard capabilities.contains(.touch) else { return }
        touchDeviceCount += 1
        if started, use.touch, touchDeviceCount == 1 { say("input: touch is on (\"\(name)\")") }
    }

    private mutating func deviceRemoved(_ device: Int, time: Double, into actions: inout [InputAction]) {
        let info = devices.removeValue(forKey: device)
        let name = info?.name ?? "device \(device)"
        // Its fingers still down are cut; a timed-out one stays ignored until a down of its slot.
        let cutTouches = Set(contacts.filter { $0.value.device == device && $0.value.state == .touching }.keys)
        for slot in cutTouches { contacts[slot] = nil }
        // Changes of this device not yet framed belong to a drag that is being cancelled.
        pending.removeAll { cutTouches.contains($0.slot) }
        let cutDrag = !cutTouches.isEmpty || pointer.deviceRemoved(device)
        if cutDrag {
            say("input: \"\(name)\" removed during a drag; the strip springs back")
            actions.append(.cancelTouches(time: time))
        } else {
            say("input: \"\(name)\" removed")
        }
        if info?.capabilities.contains(.touch) == true {
            touchDeviceCount -= 1
            if started, use.touch, touchDeviceCount == 0 { say("no touch device; running as a slideshow", notice: true) }
        }
    }
}

/// One finger on the glass, from its down to its lift: which device it came from, where it last
/// was (libinput's TOUCH_UP carries no position), when it last said anything (its stuck-touch
/// deadline is that plus `touch_timeout`), and its state. Cheap capacitive panels are known for
/// phantom contacts that never end; one would hold the strip and cancel auto-advance for good,
/// so a contact quiet for `touch_timeout` is lifted where it last was, and its later events are
/// ignored until it really lifts (or its slot goes down anew).
private struct Contact {
    /// As libinput's `enum touch_state`, with the states this daemon tells apart.
    enum State {
        /// Down, and counted: its motion drives or is ignored by the recogniser.
        case touching
        /// Lifted by `touch_timeout`, still down on the panel: not counted, its events dropped.
        case timedOut
    }
    var device: Int
    var position: (x: Double, y: Double)
    var lastEvent: Double
    var state = State.touching
}
