import CImaging
import Glibc

/// The one high-quality resample from decoded pixels to a pre-scaled card: EXIF orientation,
/// fit (cover crops, contain letterboxes) and the scale are folded into a single pixman
/// transform, so pixels are filtered exactly once.
enum CardScaler {
    static func makeCard(from decoded: DecodedImage, spec: CardSpec) throws(ImageError) -> Card {
        let source = decoded.pixels
        let (card, place) = try start(width: source.width, height: source.height, orientation: decoded.orientation, spec: spec)
        resample(source.pixman, place.cardToStored, ratio: place.ratio, op: decoded.hasAlpha ? PIXMAN_OP_OVER : PIXMAN_OP_SRC,
                 into: card, rect: place.covered)
        return card
    }

    /// The same resample from a picture decoded a band of rows at a time (JPEG, PNG). Each band of card pixels
    /// (card rows, or card columns when EXIF turns the picture by 90°) is drawn from the decoded
    /// rows its filter reads, visited in the order the rows are decoded; rows no later band
    /// reads are dropped, rows no band reads are skipped. The card equals a whole-picture
    /// resample.
    static func makeCard(from rows: some RowSource, spec: CardSpec, bandRows: Int = 64) throws(ImageError) -> Card {
        let (card, place) = try start(width: rows.width, height: rows.height, orientation: rows.orientation, spec: spec)
        let map = place.cardToStored
        // Stored row of a card pixel: b·x + d·y + ty. Orientations turn by multiples of 90°, so it
        // follows either card rows (b = 0) or card columns (d = 0).
        let alongRows = map.b == 0
        let slope = alongRows ? map.d : map.b
        let margin = Int(place.ratio.rounded(.up)) + 2 // filter taps either side of a sample
        let step = max(1, Int(Double(max(1, bandRows - 2 * margin - 2)) / abs(slope)))
        let capacity = min(rows.height, Int((Double(step) * abs(slope)).rounded(.up)) + 2 * margin + 4)
        guard let bytes = PixelImage.byteCount(width: rows.width, height: capacity, format: PIXMAN_a8r8g8b8),
              let memory = AnonymousMapping(byteCount: bytes) else {
            throw .outOfMemory(width: rows.width, height: capacity)
        }
        let pitch = bytes / capacity
        let covered = place.covered
        let (first, end) = alongRows ? (covered.y, covered.maxY) : (covered.x, covered.maxX)
        var starts = Array(stride(from: first, to: end, by: step))
        if slope < 0 { starts.reverse() } // the bands whose rows are decoded first, first
        var bandTop = 0, bandCount = 0 // the band holds decoded rows bandTop..<bandTop + bandCount
        for start in starts {
            let chunk = start..<min(end, start + step)
            let edges = [Double(chunk.lowerBound) + 0.5, Double(chunk.upperBound) - 0.5].map { slope * $0 + map.ty }
            let low = max(0, Int(edges.min()!.rounded(.down)) - margin)
            let high = min(rows.height, Int(edges.max()!.rounded(.down)) + margin + 1)
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
            let rect = alongRows ? IntRect(x: covered.x, y: chunk.lowerBound, width: covered.width, height: chunk.count)
                                 : IntRect(x: chunk.lowerBound, y: covered.y, width: chunk.count, height: covered.height)
            // Bands cover disjoint card pixels, so OVER blends each pixel over the background once.
            resample(band.pixman, Affine.translation(0, -Double(bandTop)).after(map), ratio: place.ratio,
                     op: rows.hasAlpha ? PIXMAN_OP_OVER : PIXMAN_OP_SRC,
                     into: card, rect: rect)
        }
        try rows.finish()
        return card
    }

    /// Where a picture lands on a card: the card pixels it covers, card pixel → stored pixel,
    /// and stored pixels per card pixel.
    private struct Placement {
        var covered: IntRect
        var cardToStored: Affine
        var ratio: Double
    }

    /// A card in the background colour (letterbox bars and transparent pixels show it) and
    /// where a `width` × `height` stored picture goes on it.
    private static func start(width: Int, height: Int, orientation: ExifOrientation,
                              spec: CardSpec) throws(ImageError) -> (Card, Placement) {
        guard let card = Card(width: spec.width, height: spec.height, background: spec.background) else {
            throw .outOfMemory(width: spec.width, height: spec.height)
        }
        let upright = orientation.orientedSize(width: width, height: height)
        let place = FitPlacement(imageWidth: upright.width, imageHeight: upright.height,
                                 cardWidth: spec.width, cardHeight: spec.height, fit: spec.fit)
        let covered = place.coveredPixels(cardWidth: spec.width, cardHeight: spec.height)
        // Card pixel -> upright picture pixel -> stored pixel.
        let cardToUpright = Affine.scale(1 / place.scale, 1 / place.scale).after(.translation(-place.x, -place.y))
        let map = orientation.uprightToStored(width: Double(width), height: Double(height)).after(cardToUpright)
        return (card, Placement(covered: IntRect(x: covered.x, y: covered.y, width: covered.width, height: covered.height),
                                cardToStored: map, ratio: 1 / place.scale))
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
    static let bilinearLimit = 2.0

    static func setResampleFilter(on image: OpaquePointer, sourcePixelsPerCardPixel ratio: Double) {
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
