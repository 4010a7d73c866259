import CarouselEngine

/// Where the compositor gets pre-scaled cards. `ImageStore` is the real one; asking also
/// tells it what is on screen, so it can keep and prefetch the right neighbours.
package protocol CardSource: AnyObject {
    /// The ready cards for the layout's visible indices, a card's preview (`isPreview`, smaller
    /// than its rectangle) until the card is decoded; missing ones have neither yet (or failed)
    /// and are drawn in the background colour.
    func cards(for layout: FrameLayout) -> [Int: Card]
}
