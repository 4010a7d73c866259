import CarouselCore
import CarouselEngine
import CLinux

/// Turns one recorded device's kernel events into the events libinput would have sent for it,
/// following libinput's fallback dispatch: multitouch protocol B (ABS_MT_SLOT, ABS_MT_TRACKING_ID,
/// ABS_MT_POSITION_X/Y), single-touch screens (BTN_TOUCH with ABS_X/Y), keys, and relative
/// pointers (REL_X/Y with buttons). Positions become panel pixels exactly like libinput's
/// transformed coordinates. Pointer motion is replayed unaccelerated (1 device unit = 1 pixel).
package struct EvdevDecoder {
    package let id: Int
    package let name: String
    package let capabilities: DeviceCapabilities
    private let kind: TouchKind
    private let xAxis: AbsInfo?, yAxis: AbsInfo?
    private let panel: Size

    /// Most touch slots a replayed device may have (touchscreens have 10 to 60 or so).
    package static let maxSlots = 256

    private enum TouchKind { case none, multitouch(slots: Int), singleTouch }

    /// One kernel slot: its tracking id (-1 = no touch), raw position and seat slot.
    private struct Slot {
        package var trackingID: Int32 = -1
        package var nextTrackingID: Int32 = -1
        package var x: Int32 = 0, y: Int32 = 0
        package var moved = false
        package var seatSlot: Int? = nil
    }
    private var slots: [Slot]
    private var currentSlot = 0
    /// Single-touch state: BTN_TOUCH as last reported and as pending at SYN_REPORT.
    private var touchDown = false, touchPending: Bool? = nil
    private var relative = (dx: 0.0, dy: 0.0)

    package init(id: Int, device: RecordedDevice, panel: Size, path: String) throws {
        self.id = id; self.panel = panel
        name = device.name
        let direct = device.properties.contains(Int(INPUT_PROP_DIRECT))
            || device.udevProperties.contains("ID_INPUT_TOUCHSCREEN=1")
        let hasMT = device.supports(type: EV_ABS, code: ABS_MT_POSITION_X) && device.supports(type: EV_ABS, code: ABS_MT_POSITION_Y)
        let hasST = device.supports(type: EV_ABS, code: ABS_X) && device.supports(type: EV_ABS, code: ABS_Y)
            && device.supports(type: EV_KEY, code: BTN_TOUCH)
        func axis(_ code: Int32) throws -> AbsInfo {
            guard let info = device.absinfo[Int(code)] else {
                throw RecordingError(path: path, line: device.line, message: "\"\(device.name)\" has no absinfo for axis \(code)")
            }
            return info
        }
        var caps: DeviceCapabilities = []
        if direct, hasMT {
            guard device.supports(type: EV_ABS, code: ABS_MT_SLOT) else {
                throw RecordingError(path: path, line: device.line, message:
                    "\"\(device.name)\" uses multitouch protocol A (no ABS_MT_SLOT); only protocol B can be replayed")
            }
            let slotInfo = try axis(ABS_MT_SLOT)
            let slotCount = slotInfo.maximum - slotInfo.minimum + 1  // absinfo is 32-bit: no overflow
            guard slotCount <= Self.maxSlots else {
                // Every slot is visited at each SYN_REPORT; a bogus range would stall the replay.
                throw RecordingError(path: path, line: device.line, message:
                    "\"\(device.name)\" has \(slotCount) touch slots; at most \(Self.maxSlots) can be replayed")
            }
            kind = .multitouch(slots: slotCount)
            xAxis = try axis(ABS_MT_POSITION_X); yAxis = try axis(ABS_MT_POSITION_Y)
            caps.insert(.touch)
        } else if direct, hasST {
            kind = .singleTouch
            xAxis = try axis(ABS_X); yAxis = try axis(ABS_Y)
            caps.insert(.touch)
        } else {
            kind = .none; xAxis = nil; yAxis = nil
        }
        if let keys = device.codes[Int(EV_KEY)], keys.contains(where: { $0 < Int(BTN_MISC) }) { caps.insert(.keyboard) }
        if device.supports(type: EV_REL, code: REL_X), device.supports(type: EV_KEY, code: BTN_LEFT) { caps.insert(.pointer) }
        capabilities = caps
        if case .multitouch(let n) = kind { slots = Array(repeating: Slot(), count: max(n, 1)) } else { slots = [Slot()] }
    }

    package var added: DeviceEvent { .added(device: id, name: name, capabilities: capabilities) }

    /// The events of one frame (one SYN_REPORT), allocating seat slots from `seat`.
    package mutating func decode(_ frame: EvdevFrame, seat: inout SeatSlots) -> [DeviceEvent] {
        var out: [DeviceEvent] = []
        for e in frame.events {
            switch e.type {
            case Int32(EV_ABS): absolute(e)
            case Int32(EV_KEY): key(e, into: &out)
            case Int32(EV_REL):
                if e.code == REL_X { relative.dx += Double(e.value) }
                if e.code == REL_Y { relative.dy += Double(e.value) }
            case Int32(EV_SYN) where e.code == SYN_REPORT:
                syn(time: e.time, seat: &seat, into: &out)
            default: break
            }
        }
        return out
    }

    private mutating func absolute(_ e: EvdevEvent) {
        switch kind {
        case .multitouch:
            switch e.code {
            case ABS_MT_SLOT: currentSlot = Int(e.value)
            case ABS_MT_TRACKING_ID where slots.indices.contains(currentSlot): slots[currentSlot].nextTrackingID = e.value
            case ABS_MT_POSITION_X where slots.indices.contains(currentSlot): slots[currentSlot].x = e.value; slots[currentSlot].moved = true
            case ABS_MT_POSITION_Y where slots.indices.contains(currentSlot): slots[currentSlot].y = e.value; slots[currentSlot].moved = true
            default: break  // ABS_X/Y mirror the first slot on MT devices; libinput ignores them too
            }
        case .singleTouch:
            if e.code == ABS_X { slots[0].x = e.value; slots[0].moved = true }
            if e.code == ABS_Y { slots[0].y = e.value; slots[0].moved = true }
        case .none: break
        }
    }

    private mutating func key(_ e: EvdevEvent, into out: inout [DeviceEvent]) {
        guard e.value != 2 else { return }  // kernel auto-repeat: libinput does not forward it
        let code = Int(e.code)
        if code == Int(BTN_TOUCH) {
            if case .singleTouch = kind { touchPending = e.value != 0 }
        } else if code < Int(BTN_MISC) {
            if capabilities.contains(.keyboard) { out.append(.key(device: id, code: code, pressed: e.value == 1, time: e.time)) }
        } else if (Int(BTN_MOUSE)..<Int(BTN_JOYSTICK)).contains(code), capabilities.contains(.pointer) {
            out.append(.pointerButton(device: id, button: code, pressed: e.value == 1, time: e.time))
        }
    }

    private mutating func syn(time: Double, seat: inout SeatSlots, into out: inout [DeviceEvent]) {
        if relative.dx != 0 || relative.dy != 0, capabilities.contains(.pointer) {
            out.append(.pointerMotion(device: id, dx: relative.dx, dy: relative.dy, time: time))
        }
        relative = (0, 0)
        var touched = false
        switch kind {
        case .multitouch:
            for i in slots.indices {
                let wasDown = slots[i].trackingID >= 0, isDown = slots[i].nextTrackingID >= 0
                touched = step(&slots[i], wasDown: wasDown, isDown: isDown, time: time, seat: &seat, into: &out) || touched
                slots[i].trackingID = slots[i].nextTrackingID
            }
        case .singleTouch:
            let isDown = touchPending ?? touchDown
            touched = step(&slots[0], wasDown: touchDown, isDown: isDown, time: time, seat: &seat, into: &out)
            touchDown = isDown; touchPending = nil
        case .none: break
        }
        if touched { out.append(.touchFrame(device: id, time: time)) }
    }

    /// One slot at SYN_REPORT: down, motion or up, like libinput's fallback_flush_mt_*.
    private func step(_ slot: inout Slot, wasDown: Bool, isDown: Bool, time: Double,
                      seat: inout SeatSlots, into out: inout [DeviceEvent]) -> Bool {
        defer { slot.moved = false }
        guard let xAxis, let yAxis else { return false }
        let x = PanelMapping.transformed(Int(slot.x), min: xAxis.minimum, max: xAxis.maximum, size: panel.width)
        let y = PanelMapping.transformed(Int(slot.y), min: yAxis.minimum, max: yAxis.maximum, size: panel.height)
        switch (wasDown, isDown) {
        case (false, true):
            let s = seat.take()
            slot.seatSlot = s
            out.append(.touchDown(device: id, slot: s, x: x, y: y, time: time))
        case (true, false):
            guard let s = slot.seatSlot else { return false }
            seat.give(s); slot.seatSlot = nil
            out.append(.touchUp(device: id, slot: s, time: time))
        case (true, true):
            guard slot.moved, let s = slot.seatSlot else { return false }
            out.append(.touchMotion(device: id, slot: s, x: x, y: y, time: time))
        case (false, false):
            return false
        }
        return true
    }
}

/// libinput's seat slots: the lowest free number, shared by every touch device of the seat.
package struct SeatSlots {
    private var used: Set<Int> = []
    package init() {}
    package mutating func take() -> Int {
        var s = 0
        while used.contains(s) { s += 1 }
        used.insert(s)
        return s
    }
    package mutating func give(_ s: Int) { used.remove(s) }
}
