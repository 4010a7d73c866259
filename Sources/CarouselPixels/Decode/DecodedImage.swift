/// A picture's size as its header declares it, known before any pixel memory is taken.
package struct ImageHeader: Equatable {
    package var width: Int
    package var height: Int
    package var orientation: ExifOrientation = .up

    /// The size the picture shows at, after EXIF orientation.
    package var upright: (width: Int, height: Int) { orientation.orientedSize(width: width, height: height) }

    /// Refuses headers over the pixel cap; called before any decode buffer exists.
    package func check(maxPixels: Int) throws(ImageError) {
        guard width > 0, height > 0 else { throw .corrupt(format: "image", detail: "header declares \(width)x\(height)") }
        if width.multipliedReportingOverflow(by: height).partialValue > maxPixels || width > 65_535 || height > 65_535 {
            throw .tooLarge(width: width, height: height, limit: maxPixels)
        }
    }
}

/// Decoded pixels, still in stored orientation, possibly already shrunk by the decoder.
package struct DecodedImage {
    package var pixels: PixelImage
    package var orientation: ExifOrientation
    /// Premultiplied alpha that must be composited over the background (WebP with alpha).
    package var hasAlpha: Bool
}
