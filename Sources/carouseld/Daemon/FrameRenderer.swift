import CImaging
import CarouselEngine

/// Draws one engine layout into a frame. Renderers only write to the target (scanout memory
/// is often uncached: never read it back).
protocol FrameRenderer: AnyObject {
    func draw(_ layout: FrameLayout, into target: FrameTarget)
}

/// A stand-in until the pixels compositor is on main: background, one solid rectangle per
/// card in a colour picked by playlist index, and the page dots. Drawn with pixman fills.
final class PlaceholderRenderer: FrameRenderer {
    static let palette: [RGB] = [RGB(0xE04030), RGB(0x30A050), RGB(0x3060D0), RGB(0xE0B020), RGB(0x9040C0)]
    let config: CarouselConfig

    init(config: CarouselConfig) { self.config = config }

    func draw(_ layout: FrameLayout, into target: FrameTarget) {
        guard let image = pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(target.width), Int32(target.height),
                                                   target.pixels.assumingMemoryBound(to: UInt32.self),
                                                   Int32(target.stride)) else { return }
        defer { pixman_image_unref(image) }
        fill(image, config.background, [pixman_box32(x1: 0, y1: 0, x2: Int32(target.width), y2: Int32(target.height))])
        for card in layout.cards {
            let w = card.width * card.scale, h = card.height * card.scale
            let x = card.x + (card.width - w) / 2, y = card.y + (card.height - h) / 2
            let colour = Self.palette[card.index % Self.palette.count]
            fill(image, colour, [pixman_box32(x1: Int32(x.rounded()), y1: Int32(y.rounded()),
                                              x2: Int32((x + w).rounded()), y2: Int32((y + h).rounded()))])
        }
        guard config.dots, layout.pageCount > 1 else { return }
        let pitch = config.dotSize + config.dotSpacing
        let left = (layout.viewport.width - Double(layout.pageCount) * pitch + config.dotSpacing) / 2
        let top = config.dotsPosition == .bottom ? layout.viewport.height - config.dotsMargin - config.dotSize / 2
            : config.dotsMargin - config.dotSize / 2
        for page in 0..<layout.pageCount {
            let x = Int32((left + Double(page) * pitch).rounded()), y = Int32(top.rounded()), s = Int32(config.dotSize)
            fill(image, page == layout.selectedPage ? config.dotActiveColor : config.dotColor,
                 [pixman_box32(x1: x, y1: y, x2: x + s, y2: y + s)])
        }
    }

    private func fill(_ image: OpaquePointer, _ colour: RGB, _ boxes: [pixman_box32]) {
        var c = pixman_color_t(red: UInt16(colour.red) * 257, green: UInt16(colour.green) * 257,
                               blue: UInt16(colour.blue) * 257, alpha: 0xFFFF)
        var boxes = boxes
        pixman_image_fill_boxes(PIXMAN_OP_SRC, image, &c, Int32(boxes.count), &boxes)
    }
}
