/// The event loop's pending deadlines: a binary min-heap keyed by an identity, so a timer that
/// is rescheduled or dropped is found in O(1) and moved or taken out in O(log n). The earliest
/// deadline is at the root; equal deadlines come out in the order they were set (a sequence
/// number breaks the tie), so two timers due at once run in a predictable order.
package struct DeadlineHeap<ID: Hashable> {
    private struct Entry {
        let id: ID
        let deadline: Double
        let sequence: UInt64
        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    private var entries: [Entry] = []
    /// Where each id's entry is in `entries`.
    private var positions: [ID: Int] = [:]
    private var nextSequence: UInt64 = 0

    package init() {}

    package var isEmpty: Bool { entries.isEmpty }
    package var count: Int { entries.count }

    /// The earliest deadline and its id.
    package var first: (id: ID, deadline: Double)? { entries.first.map { ($0.id, $0.deadline) } }

    package func deadline(of id: ID) -> Double? { positions[id].map { entries[$0].deadline } }

    /// Sets (or moves) `id`'s deadline; nil takes it out.
    package mutating func set(_ id: ID, to deadline: Double?) {
        guard let deadline else { remove(id); return }
        nextSequence += 1
        let entry = Entry(id: id, deadline: deadline, sequence: nextSequence)
        if let index = positions[id] {
            entries[index] = entry
            // Moved earlier it rises, moved later it sinks; one of the two does nothing.
            siftDown(siftUp(index))
        } else {
            entries.append(entry)
            positions[id] = entries.count - 1
            siftUp(entries.count - 1)
        }
    }

    package mutating func remove(_ id: ID) {
        guard let index = positions.removeValue(forKey: id) else { return }
        let last = entries.removeLast()
        guard index < entries.count else { return }
        // The last entry fills the hole and goes wherever it belongs from there.
        entries[index] = last
        positions[last.id] = index
        siftDown(siftUp(index))
    }

    /// Takes out and returns the earliest entry.
    package mutating func popFirst() -> (id: ID, deadline: Double)? {
        guard let top = first else { return nil }
        remove(top.id)
        return top
    }

    @discardableResult
    private mutating func siftUp(_ start: Int) -> Int {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            guard entries[index].precedes(entries[parent]) else { break }
            swapAt(index, parent)
            index = parent
        }
        return index
    }

    private mutating func siftDown(_ start: Int) {
        var index = start
        while true {
            let left = 2 * index + 1, right = left + 1
            var smallest = index
            if left < entries.count, entries[left].precedes(entries[smallest]) { smallest = left }
            if right < entries.count, entries[right].precedes(entries[smallest]) { smallest = right }
            if smallest == index { return }
            swapAt(index, smallest)
            index = smallest
        }
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        entries.swapAt(a, b)
        positions[entries[a].id] = a
        positions[entries[b].id] = b
    }
}
