import CarouselCore
import CImaging
import CarouselEngine

/// PNG headers (and whole-picture decodes for the tests' own files) through libpng's simplified
/// API. Cards are made from PNGRowDecoder, a row at a time. Pictures with alpha are composited
/// over the background colour by libpng itself in `decode` (it removes the alpha channel).
package enum PNGDecoder {
    package static func header(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageHeader {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            throw classify(message(of: &image))
        }
        return ImageHeader(width: Int(image.width), height: Int(image.height),
                           orientation: EmbeddedExif.pngOrientation(bytes))
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer, background: RGB) throws(ImageError) -> DecodedImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            throw classify(message(of: &image))
        }
        let width = Int(image.width), height = Int(image.height)
        // 8-bit B,G,R in memory is pixman's 24-bit r8g8b8 on little-endian machines.
        image.format = UInt32(PNG_FORMAT_BGR)
        guard let pixels = PixelImage(width: width, height: height, format: PIXMAN_r8g8b8) else {
            throw .outOfMemory(width: width, height: height)
        }
        var colour = png_color(red: background.red, green: background.green, blue: background.blue)
        guard png_image_finish_read(&image, &colour, pixels.base, Int32(pixels.stride), nil) != 0 else {
            throw classify(message(of: &image))
        }
        return DecodedImage(pixels: pixels, orientation: .up, hasAlpha: false)
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { string(fromCArray: $0) }
    }

    package static func classify(_ message: String) -> ImageError {
        let lower = message.lowercased()
        if lower.contains("not enough") || lower.contains("read error") || lower.contains("unexpected end")
            || lower.contains("truncated") || lower.contains("eof") || lower.contains("beyond end") {
            return .truncated(format: "PNG", detail: message)
        }
        return .corrupt(format: "PNG", detail: message)
    }
}
