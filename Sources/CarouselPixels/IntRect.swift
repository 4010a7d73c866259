/// A rectangle of whole pixels.
package struct IntRect: Equatable {
    package var x: Int, y: Int, width: Int, height: Int

    package var maxX: Int { x + width }
    package var maxY: Int { y + height }
    package var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The smallest whole-pixel rectangle containing the given real one.
    package init(enclosing x: Double, _ y: Double, _ width: Double, _ height: Double) {
        let left = Int((x + 1e-9).rounded(.down)), top = Int((y + 1e-9).rounded(.down))
        let right = Int((x + width - 1e-9).rounded(.up)), bottom = Int((y + height - 1e-9).rounded(.up))
        self.init(x: left, y: top, width: right - left, height: bottom - top)
    }

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    package func intersection(_ o: IntRect) -> IntRect {
        let left = max(x, o.x), top = max(y, o.y)
        return IntRect(x: left, y: top, width: max(0, min(maxX, o.maxX) - left), height: max(0, min(maxY, o.maxY) - top))
    }

    package func intersects(_ o: IntRect) -> Bool { !intersection(o).isEmpty }

    package func union(_ o: IntRect) -> IntRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let left = min(x, o.x), top = min(y, o.y)
        return IntRect(x: left, y: top, width: max(maxX, o.maxX) - left, height: max(maxY, o.maxY) - top)
    }
}
