import CarouselCore
import CarouselEngine
import Glibc

/// What a cached card was made from: the source file as it was (device, inode, size, mtime in
/// ns), the card spec, and the carouseld build that made it. Any change is a different key, so
/// an edited photo, a new card size or an upgraded decoder never shows an old card.
package struct CardCacheKey: Equatable, Sendable {
    package var device: UInt64
    package var inode: UInt64
    package var size: UInt64
    package var mtimeNanoseconds: UInt64
    package var width: UInt64
    package var height: UInt64
    package var fit: UInt64
    package var background: UInt64
    package var maxImagePixels: UInt64
    package var build: UInt64

    /// nil when the source cannot be stat'ed (then it is decoded, and fails, as without a cache).
    package init?(path: String, spec: CardSpec, build: UInt64 = CardCacheKey.buildIdentity) {
        guard let file = FileStamp(path: path) else { return nil }
        (device, inode, size, mtimeNanoseconds) = (file.device, file.inode, file.size, file.mtimeNanoseconds)
        width = UInt64(spec.width); height = UInt64(spec.height)
        // A draft (a preview) is never served for a full card of the same size.
        fit = UInt64(FitMode.allCases.firstIndex(of: spec.fit) ?? 0) | (spec.draft ? 0x100 : 0)
        background = UInt64(spec.background.value)
        maxImagePixels = UInt64(spec.maxImagePixels)
        self.build = build
    }

    package init(words: ArraySlice<UInt64>) {
        let w = Array(words)
        (device, inode, size, mtimeNanoseconds) = (w[0], w[1], w[2], w[3])
        (width, height, fit, background, maxImagePixels, build) = (w[4], w[5], w[6], w[7], w[8], w[9])
    }

    package static let wordCount = 10
    package var words: [UInt64] { [device, inode, size, mtimeNanoseconds, width, height, fit, background, maxImagePixels, build] }

    /// The running executable (device, inode, size, mtime): an upgrade, or a rebuild during
    /// development, makes new keys, so cards from an older decoder are rebuilt, not shown.
    package static let buildIdentity: UInt64 = {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return 0 }
        return FNV.hash([UInt64(info.st_dev), UInt64(info.st_ino), UInt64(info.st_size),
                         UInt64(info.st_mtim.tv_sec), UInt64(info.st_mtim.tv_nsec)])
    }()
}

/// The fixed-size header in front of a cached card's pixels, as 64-bit words in native byte
/// order (the cache never leaves the machine): magic+version, the key, the payload's length and
/// checksum, and a checksum of the words before it. The payload is the card's padded pixels
/// (border included), exactly as `Card.padded` holds them, so a hit is one read into the card.
package struct CardCacheHeader: Equatable {
    /// "CARDv" and the format version; a new layout bumps the version and old entries miss.
    package static let magic: UInt64 = 0x4341_5244_7600_0001
    package static let wordCount = 1 + CardCacheKey.wordCount + 3
    package static let byteCount = wordCount * 8

    package var key: CardCacheKey
    package var payloadBytes: UInt64
    package var payloadChecksum: UInt64

    package var words: [UInt64] {
        let body = [Self.magic] + key.words + [payloadBytes, payloadChecksum]
        return body + [FNV.hash(body)]
    }

    /// nil for a wrong magic or version, a bad header checksum or a short header.
    package init?(words: [UInt64]) {
        guard words.count == Self.wordCount, words[0] == Self.magic,
              FNV.hash(Array(words.dropLast())) == words[Self.wordCount - 1] else { return nil }
        key = CardCacheKey(words: words[1...CardCacheKey.wordCount])
        payloadBytes = words[CardCacheKey.wordCount + 1]
        payloadChecksum = words[CardCacheKey.wordCount + 2]
    }

    package init(key: CardCacheKey, payloadBytes: Int, payloadChecksum: UInt64) {
        self.key = key; self.payloadBytes = UInt64(payloadBytes); self.payloadChecksum = payloadChecksum
    }
}
