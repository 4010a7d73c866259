import Glibc

/// The rectangle in which two frames of the same size differ, for Wayland's
/// `wl_surface.damage_buffer`: the compositor then re-reads only that part of the buffer.
/// Rows are compared with memcmp; within the changed rows the columns are narrowed from both
/// ends. Nil when the frames are identical.
package enum FrameDamage {
    package struct Rect: Equatable {
        package var x: Int, y: Int, width: Int, height: Int
        package init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
    }

    package static func changed(_ old: PixelBuffer, _ new: PixelBuffer) -> Rect? {
        precondition(old.width == new.width && old.height == new.height, "frames of different sizes")
        let rowBytes = new.width * 4
        func rowDiffers(_ y: Int) -> Bool { memcmp(old.base + y * old.stride, new.base + y * new.stride, rowBytes) != 0 }
        guard let top = (0..<new.height).first(where: rowDiffers) else { return nil }
        let bottom = (top..<new.height).last(where: rowDiffers) ?? top
        var left = new.width, right = -1
        for y in top...bottom {
            let a = old.base + y * old.stride, b = new.base + y * new.stride
            func differs(_ x: Int) -> Bool { a.load(fromByteOffset: x * 4, as: UInt32.self) != b.load(fromByteOffset: x * 4, as: UInt32.self) }
            if let l = (0..<left).first(where: differs) { left = l }
            if let r = ((right + 1)..<new.width).reversed().first(where: differs) { right = r }
            if left == 0 && right == new.width - 1 { break }
        }
        guard right >= left else { return Rect(x: 0, y: top, width: new.width, height: bottom - top + 1) }
        return Rect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }
}
