import CImaging
import CarouselEngine

/// A pre-scaled picture, opaque a8r8g8b8, kept with a one-pixel border in the background
/// colour around it.
///
/// Why the border: when the compositor scales a card it samples with PAD repeat from the
/// bordered image, so the card's edge blends into the background colour (antialiased) in
/// pixman's fast SRC path, without reading what lies underneath. `inner` is a pixman view of
/// the picture without the border, for plain copies and for blending over other cards.
/// Why a8r8g8b8 and not x8r8g8b8: pixman's SIMD bilinear paths take a8r8g8b8 sources only.
package final class Card: @unchecked Sendable {
    package let width: Int
    package let height: Int
    /// (width + 2) × (height + 2), the picture at (1, 1).
    package let padded: PixelImage
    /// pixman_image_t* over the picture alone (no border), sharing `padded`'s memory.
    package let inner: OpaquePointer
    /// A small stand-in decoded first (`CardSpec.preview`), drawn scaled up to the card's
    /// rectangle until the full card replaces it. Set by the decode worker before the card is
    /// shared, never after.
    package var isPreview = false
    /// What it was made from, when the decode worker made it (set, like `isPreview`, before
    /// the card is shared). Cards with the same content have the same pixels: a display that
    /// copied one keeps the copy for the next (`PlaneBufferPool`).
    package var content: CardContent?

    /// A card whose picture and border are filled with `background`; the caller draws the picture into `inner`.
    package convenience init?(width: Int, height: Int, background: RGB) {
        guard width > 0, height > 0,
              let padded = PixelImage(width: width + 2, height: height + 2, format: PIXMAN_a8r8g8b8) else { return nil }
        padded.fill(background.value)
        self.init(padded: padded)
    }

    /// A card over `padded`, already holding the picture and its border (a cache entry's).
    package init?(padded: PixelImage) {
        guard padded.width > 2, padded.height > 2, padded.format == PIXMAN_a8r8g8b8,
              let inner = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(padded.width - 2), Int32(padded.height - 2),
                                                   (padded.base + padded.stride + 4).assumingMemoryBound(to: UInt32.self),
                                                   Int32(padded.stride)) else { return nil }
        self.width = padded.width - 2; self.height = padded.height - 2; self.padded = padded; self.inner = inner
    }

    /// A card showing `picture` (same size), e.g. a solid test picture.
    package convenience init?(picture: PixelImage, background: RGB) {
        self.init(width: picture.width, height: picture.height, background: background)
        pixman_image_composite32(PIXMAN_OP_SRC, picture.pixman, nil, inner, 0, 0, 0, 0, 0, 0,
                                 Int32(width), Int32(height))
    }

    deinit { pixman_image_unref(inner) }

    /// The picture's top-left pixel and row pitch, for row copies.
    package var pictureBase: UnsafeMutableRawPointer { padded.base + padded.stride + 4 }
    package var stride: Int { padded.stride }
    package var byteCount: Int { padded.byteCount }

    /// 0xAARRGGBB of the picture at (x, y); for tests and checks.
    package func pixel(x: Int, y: Int) -> UInt32 { padded.pixel(x: x + 1, y: y + 1) }
}
