import CarouselCore
/// Finds the EXIF block PNG and WebP files carry in a chunk of their own (PNG `eXIf`, WebP
/// `EXIF` inside RIFF), so their orientation is read like a JPEG's. A plain walk over the chunk
/// headers, bounds-checked, stopping at the pixel data: the header probe has only the first
/// bytes of the file, and both formats put EXIF before the pixels when written by the book.
package enum EmbeddedExif {
    /// The orientation from a PNG's `eXIf` chunk; `.up` when there is none before IDAT.
    package static func pngOrientation(_ bytes: UnsafeRawBufferPointer) -> ExifOrientation {
        var offset = 8 // signature
        while offset + 8 <= bytes.count {
            let length = bigEndian32(bytes, offset), kind = fourCC(bytes, offset + 4)
            let start = offset + 8, end = start + length
            if kind == "IDAT" || kind == "IEND" || length < 0 || end > bytes.count { break }
            if kind == "eXIf" { return orientation(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) }
            offset = end + 4 // CRC
        }
        return .up
    }

    /// The orientation from a WebP's `EXIF` chunk; `.up` when there is none.
    package static func webpOrientation(_ bytes: UnsafeRawBufferPointer) -> ExifOrientation {
        var offset = 12 // "RIFF", size, "WEBP"
        while offset + 8 <= bytes.count {
            let kind = fourCC(bytes, offset), length = littleEndian32(bytes, offset + 4)
            let start = offset + 8, end = start + length
            if end > bytes.count { break }
            if kind == "EXIF" { return orientation(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) }
            offset = end + (length & 1) // chunks are padded to an even size
        }
        return .up
    }

    /// libexif reads an EXIF block that starts with "Exif\0\0"; PNG stores the TIFF data
    /// without it, WebP writers differ.
    private static func orientation(_ payload: UnsafeRawBufferPointer) -> ExifOrientation {
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        let block = payload.starts(with: header) ? Array(payload) : header + Array(payload)
        return block.withUnsafeBytes { ExifOrientation.read(jpeg: $0) }
    }

    private static func fourCC(_ b: UnsafeRawBufferPointer, _ i: Int) -> String {
        String(decoding: b[i..<i + 4], as: UTF8.self)
    }

    private static func bigEndian32(_ b: UnsafeRawBufferPointer, _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }

    private static func littleEndian32(_ b: UnsafeRawBufferPointer, _ i: Int) -> Int {
        Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24
    }
}
