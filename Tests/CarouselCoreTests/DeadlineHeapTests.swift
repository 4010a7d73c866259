@testable import CarouselCore
import XCTest

/// The loop's deadline heap: earliest first, moved and removed by id.
final class DeadlineHeapTests: XCTestCase {
    private func drain(_ heap: inout DeadlineHeap<String>) -> [String] {
        var order: [String] = []
        while let next = heap.popFirst() { order.append(next.id) }
        return order
    }

    func testEntriesComeOutEarliestFirstAndTiesInTheOrderTheyWereSet() {
        var heap = DeadlineHeap<String>()
        for (id, deadline) in [("c", 3.0), ("a", 1.0), ("e", 5.0), ("b1", 2.0), ("d", 4.0), ("b2", 2.0)] {
            heap.set(id, to: deadline)
        }
        XCTAssertEqual(heap.first?.id, "a")
        XCTAssertEqual(drain(&heap), ["a", "b1", "b2", "c", "d", "e"])
        XCTAssertTrue(heap.isEmpty)
    }

    func testARescheduledEntryMovesAndARemovedOneIsGone() {
        var heap = DeadlineHeap<String>()
        for (index, id) in ["a", "b", "c", "d", "e", "f"].enumerated() { heap.set(id, to: Double(index)) }
        heap.set("a", to: 10)      // later: sinks
        heap.set("f", to: -1)      // earlier: rises
        heap.remove("c")
        heap.set("d", to: nil)     // nil takes it out too
        heap.remove("missing")
        XCTAssertEqual(heap.count, 4)
        XCTAssertEqual(heap.deadline(of: "a"), 10)
        XCTAssertNil(heap.deadline(of: "c"))
        XCTAssertEqual(drain(&heap), ["f", "b", "e", "a"])
    }

    /// Against a sorted list, over many random operations.
    func testRandomOperationsAgreeWithASortedList() {
        var generator = SystemRandomNumberGenerator()
        var heap = DeadlineHeap<Int>()
        var model: [Int: Double] = [:]
        for _ in 0..<2000 {
            let id = Int.random(in: 0..<40, using: &generator)
            if Bool.random(using: &generator) || model[id] == nil {
                let deadline = Double(Int.random(in: 0..<1000, using: &generator))
                heap.set(id, to: deadline); model[id] = deadline
            } else {
                heap.remove(id); model[id] = nil
            }
            XCTAssertEqual(heap.count, model.count)
            XCTAssertEqual(heap.first?.deadline, model.values.min())
        }
        var last = -Double.infinity
        while let next = heap.popFirst() {
            XCTAssertGreaterThanOrEqual(next.deadline, last)
            XCTAssertEqual(model.removeValue(forKey: next.id), next.deadline)
            last = next.deadline
        }
        XCTAssertTrue(model.isEmpty)
    }
}
