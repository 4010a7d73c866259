extension CarouselEngine {
    /// The layouts at rest on the next page and on the one before, in that order: what the next
    /// page change brings on screen. The shell readies their cards while nothing moves (on
    /// overlay planes, a card's copy into its buffer), rather than in one frame's time in the
    /// middle of the page change. Empty while the strip moves or is held, and with one page.
    public func neighbourLayouts() -> [FrameLayout] {
        guard model.strip.loops, animation == nil, fade == nil, recognizer.fingersDown.isEmpty else { return [] }
        return [page + 1, page - 1].map { layout(atPosition: model.strip.anchor(ofPage: $0)) }
    }
}
