/// FNV-1a over 64-bit words (not bytes): a corrupt-entry check, not a cryptographic hash. Eight
/// bytes per multiply keeps a 1080p card's checksum to a few ms; zlib's crc32 is not linked.
package enum FNV {
    package static let offset: UInt64 = 0xcbf2_9ce4_8422_2325
    package static let prime: UInt64 = 0x100_0000_01b3

    package static func hash(_ words: [UInt64]) -> UInt64 {
        words.reduce(offset) { ($0 ^ $1) &* prime }
    }

    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h = offset
        let words = bytes.count / 8
        if let base = bytes.baseAddress {
            for i in 0..<words { h = (h ^ base.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) &* prime }
        }
        for i in (words * 8)..<bytes.count { h = (h ^ UInt64(bytes[i])) &* prime }
        return h
    }

    package static func hash(_ text: String) -> UInt64 {
        var h = offset
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* prime }
        return h
    }
}
