import CarouselCore
import CImaging

/// The EXIF orientation tag (1...8): how the stored pixels must be turned to look upright.
package enum ExifOrientation: Int, Sendable, CaseIterable {
    case up = 1, mirrored = 2, down = 3, downMirrored = 4
    case leftMirrored = 5, right = 6, rightMirrored = 7, left = 8

    /// Orientations 5...8 turn by 90°, swapping width and height.
    package var swapsAxes: Bool { rawValue >= 5 }

    package func orientedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// Maps a point of the upright picture to the stored pixels of a `w`×`h` raw image.
    /// From the EXIF definitions: e.g. 6 means "row 0 is the visual right side, column 0 the top".
    package func uprightToStored(width w: Double, height h: Double) -> Affine {
        switch self {
        case .up: return .identity
        case .mirrored: return Affine(a: -1, tx: w)                          // (w−u, v)
        case .down: return Affine(a: -1, d: -1, tx: w, ty: h)                // (w−u, h−v)
        case .downMirrored: return Affine(d: -1, ty: h)                      // (u, h−v)
        case .leftMirrored: return Affine(a: 0, b: 1, c: 1, d: 0)            // (v, u)
        case .right: return Affine(a: 0, b: -1, c: 1, d: 0, ty: h)           // (v, h−u)
        case .rightMirrored: return Affine(a: 0, b: -1, c: -1, d: 0, tx: w, ty: h) // (w−v, h−u)
        case .left: return Affine(a: 0, b: 1, c: -1, d: 0, tx: w)            // (w−v, u)
        }
    }

    /// Reads the orientation from a JPEG's EXIF block with libexif; `.up` when absent or invalid.
    package static func read(jpeg bytes: UnsafeRawBufferPointer) -> ExifOrientation {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
              bytes.count < Int(UInt32.max),
              let exif = exif_data_new_from_data(base, UInt32(bytes.count)) else { return .up }
        defer { exif_data_unref(exif) }
        // exif_data_get_entry is a macro; IFD 0 is where TIFF puts the orientation tag.
        guard let ifd0 = exif.pointee.ifd.0,
              let entry = exif_content_get_entry(ifd0, EXIF_TAG_ORIENTATION),
              entry.pointee.format == EXIF_FORMAT_SHORT, entry.pointee.components >= 1,
              let data = entry.pointee.data else { return .up }
        let value = exif_get_short(data, exif_data_get_byte_order(exif))
        return ExifOrientation(rawValue: Int(value)) ?? .up
    }
}
