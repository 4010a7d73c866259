/// A size in screen pixels.
public struct Size: Equatable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public var description: String { "\(Int(width))x\(Int(height))" }
}

/// An opaque RGB colour, 0xRRGGBB.
public struct RGB: Hashable, Sendable, CustomStringConvertible {
    public var value: UInt32
    public init(_ value: UInt32) { self.value = value & 0xFF_FFFF }
    public var red: UInt8 { UInt8((value >> 16) & 0xFF) }
    public var green: UInt8 { UInt8((value >> 8) & 0xFF) }
    public var blue: UInt8 { UInt8(value & 0xFF) }

    /// Parses `#RRGGBB` (the `#` is optional).
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6, let v = UInt32(digits, radix: 16) else { return nil }
        self.init(v)
    }
    public var description: String {
        let s = String(value, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - s.count) + s
    }
}
