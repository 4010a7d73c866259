/// A borrowed XRGB8888 pixel area the compositor draws into: a DRM dumb buffer, an fbdev
/// mapping, or memory owned by a `PixelImage`. The owner keeps the memory alive while the
/// compositor uses it. `stride` is in bytes and must be a multiple of 4.
package struct PixelBuffer: @unchecked Sendable {
    package let base: UnsafeMutableRawPointer
    package let width: Int
    package let height: Int
    package let stride: Int

    package init(base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) {
        precondition(width > 0 && height > 0 && stride >= width * 4 && stride % 4 == 0,
                     "PixelBuffer \(width)x\(height) stride \(stride): not a valid XRGB8888 area")
        self.base = base; self.width = width; self.height = height; self.stride = stride
    }

    /// 0xXXRRGGBB at (x, y); for tests and PNG output, never used while composing.
    package func pixel(x: Int, y: Int) -> UInt32 {
        base.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
    }

    /// Identifies the area for the compositor's "last layout per target" memory.
    package var identity: TargetIdentity {
        TargetIdentity(address: UInt(bitPattern: base), width: width, height: height, stride: stride)
    }
}

package struct TargetIdentity: Hashable {
    package var address: UInt
    package var width: Int
    package var height: Int
    package var stride: Int
}
