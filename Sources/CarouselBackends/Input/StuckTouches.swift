import CarouselCore
/// Contacts that stopped reporting. Cheap capacitive panels are known for phantom contacts that
/// never end; one of them would hold the strip and cancel auto-advance for good. A contact with
/// no event for `timeout` seconds is treated as lifted where it last was, and its later events
/// are ignored until it really lifts (or its slot goes down anew).
package struct StuckTouches {
    /// Seconds; 0 never times out.
    package var timeout: Double
    /// Contacts down: the device they come from and the time of their last event.
    private var down: [Int: (device: Int, last: Double)] = [:]
    /// Contacts that timed out, ignored until they lift.
    package private(set) var ignored: Set<Int> = []

    package init(timeout: Double) { self.timeout = timeout }

    /// A down or a move of `slot`. False when the contact timed out: drop the event.
    package mutating func moved(slot: Int, device: Int, time: Double, isDown: Bool) -> Bool {
        if isDown { ignored.remove(slot) }
        guard !ignored.contains(slot) else { return false }
        down[slot] = (device, time)
        return true
    }

    /// An up or a cancel of `slot`. False when the contact had timed out (it was lifted then):
    /// drop the event, and the slot counts again.
    package mutating func lifted(slot: Int) -> Bool {
        down[slot] = nil
        return ignored.remove(slot) == nil
    }

    /// Forgets a device's contacts (it went away; its touches are cancelled anyway).
    package mutating func removeDevice(_ device: Int) {
        down = down.filter { $0.value.device != device }
    }

    /// When the first contact down will have been quiet for `timeout`; nil if none or off.
    package var nextDeadline: Double? {
        guard timeout > 0 else { return nil }
        return down.values.map(\.last).min().map { $0 + timeout }
    }

    /// The contacts quiet for `timeout` at `now`, slot and device, by slot; from then on ignored.
    package mutating func expire(now: Double) -> [(slot: Int, device: Int)] {
        guard timeout > 0 else { return [] }
        let stuck = down.filter { now - $0.value.last >= timeout }.map { (slot: $0.key, device: $0.value.device) }
            .sorted { $0.slot < $1.slot }
        for contact in stuck {
            down[contact.slot] = nil
            ignored.insert(contact.slot)
        }
        return stuck
    }
}
