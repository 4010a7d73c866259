/// One card to draw: which picture, where, and how emphasised.
public struct CardLayout: Sendable, Equatable {
    /// Playlist index of the picture (0..<itemCount).
    public var index: Int
    /// Left edge of the unscaled card in screen pixels; the card is scaled about its centre.
    public var x: Double
    /// Top edge of the unscaled card in screen pixels.
    public var y: Double
    public var width: Double
    public var height: Double
    /// 1 at rest in the centre when `center_scale` is 1; a continuous function of distance.
    public var scale: Double
    /// 0...1, a continuous function of distance from the centre.
    public var opacity: Double
    public init(index: Int, x: Double, y: Double, width: Double, height: Double, scale: Double, opacity: Double) {
        self.index = index; self.x = x; self.y = y; self.width = width; self.height = height
        self.scale = scale; self.opacity = opacity
    }
}

/// What the screen should show at one instant. Equal layouts must render to identical pixels.
///
/// It deliberately carries no display-slot identity: the frames just before and just after a
/// loop re-centre are the same picture and so compare equal.
public struct FrameLayout: Sendable, Equatable {
    public var viewport: Size
    /// Cards that intersect the viewport, drawn in order (the centre-most card last, on top).
    public var cards: [CardLayout]
    /// Playlist index of the selected page's first card; 0 when the playlist is empty.
    public var selectedIndex: Int
    public var itemCount: Int
    /// Number of pages (for the page dots): ceil(itemCount / cardsPerPage).
    public var pageCount: Int
    /// The selected page (for the page dots).
    public var selectedPage: Int
    /// True while dragging or while the spring runs.
    public var isMoving: Bool
    public init(viewport: Size, cards: [CardLayout], selectedIndex: Int, itemCount: Int,
                pageCount: Int, selectedPage: Int, isMoving: Bool) {
        self.viewport = viewport; self.cards = cards; self.selectedIndex = selectedIndex
        self.itemCount = itemCount; self.pageCount = pageCount; self.selectedPage = selectedPage
        self.isMoving = isMoving
    }
}

/// What the engine reports to the shell (logs, replay output, systemd status).
public enum CarouselEvent: Sendable, Equatable {
    /// The driving finger lifted after a drag; velocities in px/s, pages as playlist indices.
    case release(time: Double, velocityX: Double, velocityY: Double, from: Int, to: Int)
    /// A tap on a side card; `index` is the card paged to.
    case tap(time: Double, index: Int)
    /// A tap on the centre card.
    case activated(time: Double, index: Int)
    /// The strip came to rest on `index` (after any loop re-centre).
    case settled(time: Double, index: Int)
}
