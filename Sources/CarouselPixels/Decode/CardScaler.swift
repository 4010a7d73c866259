import CarouselCore
import CImaging
import Glibc

/// The one high-quality resample from decoded pixels to a pre-scaled card: EXIF orientation,
/// fit (cover crops, contain letterboxes) and the scale are folded into a single pixman
/// transform, so pixels are filtered exactly once.
package enum CardScaler {
    /// The pixels are let go once resampled, before a turned picture's card is made, so the
    /// peak is the decoded picture and one card-sized image.
    package static func makeCard(from decoded: consuming DecodedImage, spec: CardSpec) throws(ImageError) -> Card {
        var source: PixelImage? = decoded.pixels
        let (orientation, op) = (decoded.orientation, decoded.hasAlpha ? PIXMAN_OP_OVER : PIXMAN_OP_SRC)
        _ = consume decoded
        return try draw(width: source!.width, height: source!.height, orientation: orientation,
                        spec: spec) { (card, place) throws(ImageError) in
            resample(source!.pixman, place.cardToStored, ratio: place.ratio, op: op, into: card, rect: place.covered)
            source = nil
        }
    }

    /// The same resample from a picture decoded a band of rows at a time (JPEG, PNG). Each band
    /// of card rows is drawn from the decoded rows its filter reads, visited in the order the
    /// rows are decoded; rows no later band reads are dropped, rows no band reads are skipped.
    /// The card equals a whole-picture resample.
    package static func makeCard(from rows: some RowSource, spec: CardSpec, bandRows: Int = 64) throws(ImageError) -> Card {
        try draw(width: rows.width, height: rows.height, orientation: rows.orientation,
                 spec: spec) { (card, place) throws(ImageError) in
            try resampleBands(from: rows, place: place, into: card, bandRows: bandRows)
        }
    }

    private static func resampleBands(from rows: some RowSource, place: Placement, into card: Card,
                                      bandRows: Int) throws(ImageError) {
        let map = place.cardToStored
        // Stored row of a card pixel: d·y + ty (`draw` leaves no turn, so b = 0 and d > 0):
        // bands of card rows read bands of stored rows, top to bottom.
        precondition(map.b == 0 && map.d > 0, "a turned placement reached the band resampler")
        let slope = map.d
        let margin = Int(place.ratio.rounded(.up)) + 2 // filter taps either side of a sample
        let step = max(1, Int(Double(max(1, bandRows - 2 * margin - 2)) / slope))
        let capacity = min(rows.height, Int((Double(step) * slope).rounded(.up)) + 2 * margin + 4)
        guard let bytes = PixelImage.byteCount(width: rows.width, height: capacity, format: PIXMAN_a8r8g8b8),
              let memory = AnonymousMapping(byteCount: bytes) else {
            throw .outOfMemory(width: rows.width, height: capacity)
        }
        let pitch = bytes / capacity
        let covered = place.covered
        var bandTop = 0, bandCount = 0 // the band holds decoded rows bandTop..<bandTop + bandCount
        for start in stride(from: covered.y, to: covered.maxY, by: step) {
            let chunk = start..<min(covered.maxY, start + step)
            // The stored rows under the chunk's first and last card rows, and the filter's taps.
            func storedRow(_ cardY: Double) -> Int { Int((slope * cardY + map.ty).rounded(.down)) }
            let low = max(0, storedRow(Double(chunk.lowerBound) + 0.5) - margin)
            let high = min(rows.height, storedRow(Double(chunk.upperBound) - 0.5) + margin + 1)
            guard high > low else { continue }
            if low > bandTop { // drop the rows above `low`, keep the rest at the top
                let kept = max(0, bandTop + bandCount - low)
                if kept > 0 { memmove(memory.base, memory.base + (low - bandTop) * pitch, kept * pitch) }
                try rows.skip(rows: low - rows.nextRow)
                bandTop = low; bandCount = kept
            }
            precondition(high - bandTop <= capacity, "band of \(high - bandTop) rows in room for \(capacity)")
            if high > bandTop + bandCount {
                try rows.read(rows: high - bandTop - bandCount, into: memory.base + bandCount * pitch, pitch: pitch)
                bandCount = high - bandTop
            }
            guard let band = PixelImage(width: rows.width, height: bandCount, format: PIXMAN_a8r8g8b8, in: memory) else {
                throw .outOfMemory(width: rows.width, height: bandCount)
            }
            let rect = IntRect(x: covered.x, y: chunk.lowerBound, width: covered.width, height: chunk.count)
            // Bands cover disjoint card pixels, so OVER blends each pixel over the background once.
            resample(band.pixman, Affine.translation(0, -Double(bandTop)).after(map), ratio: place.ratio,
                     op: rows.hasAlpha ? PIXMAN_OP_OVER : PIXMAN_OP_SRC,
                     into: card, rect: rect)
        }
        try rows.finish()
    }

    /// A card with the picture drawn by `resample(target, placement)`.
    ///
    /// Why the detour for EXIF orientations 2–8: pixman's scaling fast paths take axis-aligned
    /// transforms that keep directions; a scale through a turn or a flip went its general path,
    /// 2–4× djpeg's time for a portrait photo. So a turned picture is resampled (a plain scale)
    /// into a card in the picture's stored orientation (width and height swapped for 5–8),
    /// which `PixelTurn` then turns onto the card: an exact copy of pixels, one card-sized pass.
    /// Whole and streamed decodes take the same path, so they give the same card.
    private static func draw(width: Int, height: Int, orientation: ExifOrientation, spec: CardSpec,
                             _ resample: (Card, Placement) throws(ImageError) -> Void) throws(ImageError) -> Card {
        let place = placement(width: width, height: height, orientation: orientation, spec: spec)
        guard orientation != .up else {
            let card = try blankCard(width: spec.width, height: spec.height, spec: spec)
            try resample(card, place)
            return card
        }
        let storedSize = orientation.orientedSize(width: spec.width, height: spec.height)
        let stored = try blankCard(width: storedSize.width, height: storedSize.height, spec: spec)
        // Card pixel → pixel of the card in stored orientation: the picture's own turn.
        let turn = orientation.uprightToStored(width: Double(stored.width), height: Double(stored.height))
        try resample(stored, Placement(covered: turn.enclosing(place.covered), cardToStored: place.cardToStored.after(turn.inverse),
                                       ratio: place.ratio))
        // Made only now: the resample may have let its source go.
        let card = try blankCard(width: spec.width, height: spec.height, spec: spec)
        PixelTurn(turn).copy(from: stored.pictureBase, stride: stored.stride, width: stored.width, height: stored.height,
                             to: card.pictureBase, stride: card.stride, rect: place.covered)
        return card
    }

    /// A card in the background colour (letterbox bars and transparent pixels show it).
    private static func blankCard(width: Int, height: Int, spec: CardSpec) throws(ImageError) -> Card {
        guard let card = Card(width: width, height: height, background: spec.background) else {
            throw .outOfMemory(width: width, height: height)
        }
        return card
    }

    /// Where a picture lands on a card: the card pixels it covers, card pixel → stored pixel,
    /// and stored pixels per card pixel.
    private struct Placement {
        package var covered: IntRect
        package var cardToStored: Affine
        package var ratio: Double
    }

    /// Where a `width` × `height` stored picture goes on a card of `spec`.
    private static func placement(width: Int, height: Int, orientation: ExifOrientation, spec: CardSpec) -> Placement {
        let upright = orientation.orientedSize(width: width, height: height)
        let place = FitPlacement(imageWidth: upright.width, imageHeight: upright.height,
                                 cardWidth: spec.width, cardHeight: spec.height, fit: spec.fit)
        let covered = place.coveredPixels(cardWidth: spec.width, cardHeight: spec.height)
        // Card pixel -> upright picture pixel -> stored pixel.
        let cardToUpright = Affine.scale(1 / place.scale, 1 / place.scale).after(.translation(-place.x, -place.y))
        let map = orientation.uprightToStored(width: Double(width), height: Double(height)).after(cardToUpright)
        return Placement(covered: IntRect(x: covered.x, y: covered.y, width: covered.width, height: covered.height),
                         cardToStored: map, ratio: 1 / place.scale)
    }

    /// Composites `source` through `map` (card pixel → source pixel) onto `rect` of the card.
    private static func resample(_ source: OpaquePointer, _ map: Affine, ratio: Double, op: pixman_op_t,
                                 into card: Card, rect: IntRect) {
        var transform = map.pixmanTransform
        pixman_image_set_transform(source, &transform)
        // PAD: edge pixels repeat instead of fading to transparent at the picture's border.
        pixman_image_set_repeat(source, PIXMAN_REPEAT_PAD)
        setResampleFilter(on: source, sourcePixelsPerCardPixel: ratio)
        pixman_image_composite32(op, source, nil, card.inner, Int32(rect.x), Int32(rect.y), 0, 0,
                                 Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
        pixman_image_set_transform(source, nil)
    }

    /// Up to 2 source pixels per card pixel: bilinear (pixman's GOOD), which then still reads
    /// every source pixel. This is the usual case: the JPEG DCT scaling already did the
    /// power-of-two reduction, like picking a mipmap level. Shrinking by more than 2 (PNG,
    /// WebP, JPEGs beyond 1/8): a separable convolution, linear reconstruction with box
    /// sampling over a card pixel's footprint, so detail averages instead of aliasing.
    package static let bilinearLimit = 2.0

    package static func setResampleFilter(on image: OpaquePointer, sourcePixelsPerCardPixel ratio: Double) {
        guard ratio > bilinearLimit else {
            pixman_image_set_filter(image, PIXMAN_FILTER_BILINEAR, nil, 0)
            return
        }
        var count: Int32 = 0
        let fixed = pixman_fixed_t((ratio * 65536).rounded())
        guard let params = pixman_filter_create_separable_convolution(
            &count, fixed, fixed, PIXMAN_KERNEL_LINEAR, PIXMAN_KERNEL_LINEAR,
            PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, 2, 2) else {
            pixman_image_set_filter(image, PIXMAN_FILTER_BILINEAR, nil, 0)
            return
        }
        pixman_image_set_filter(image, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, params, count)
        free(params)
    }
}
