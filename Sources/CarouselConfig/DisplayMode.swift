/// A display mode request parsed from `WIDTHxHEIGHT[@HZ]`.
package struct DisplayMode: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var refresh: Int?
    package init?(parsing text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let dims = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard dims.count == 2, let w = Int(dims[0]), let h = Int(dims[1]),
              (1...16384).contains(w), (1...16384).contains(h) else { return nil }
        width = w; height = h
        if parts.count == 2 {
            guard let hz = Int(parts[1]), (1...1000).contains(hz) else { return nil }
            refresh = hz
        }
    }
}

