/// The looping strip: N playlist items laid out three times, `[clone | real | clone]`.
///
/// Positions are in strip units (one unit = one card step), measured at the viewport centre.
/// Display slot `s` shows playlist item `s mod N`; slots `N..<2N` are the real copy. Pages are
/// numbered globally along the strip (page `k` is page `k mod P` of copy `k / P`), so moving
/// between copies is plain arithmetic. At rest the strip always sits in the real copy: when
/// motion settles in a clone, `recentre` moves it by exactly ±N slots, which leaves every card's
/// `slot - position` (and so the whole layout) bit-identical.
///
/// Slots outside `0..<3N` are further clones; they are only drawn when the viewport holds more
/// than three copies (e.g. two small cards on a wide screen).
struct Strip: Sendable, Equatable {
    let itemCount: Int
    let cardsPerPage: Int

    init(itemCount: Int, cardsPerPage: Int) {
        self.itemCount = max(0, itemCount)
        self.cardsPerPage = max(1, cardsPerPage)
    }

    /// Pages per copy: ceil(N / cardsPerPage).
    var pageCount: Int { (itemCount + cardsPerPage - 1) / cardsPerPage }

    /// With a single page there is nothing to page to: no clones, swipes spring back.
    var loops: Bool { pageCount >= 2 }

    /// The real copy's pages are `realPages`.
    var realPages: Range<Int> { pageCount..<(2 * pageCount) }

    /// Playlist index shown in a display slot.
    func item(atSlot slot: Int) -> Int { floorMod(slot, itemCount) }

    /// Whether a slot is drawn at all (without looping only the real copy exists).
    func isDrawn(slot: Int) -> Bool {
        guard itemCount > 0 else { return false }
        return loops || (itemCount..<(2 * itemCount)).contains(slot)
    }

    /// Page within the playlist (0..<P) of a global page.
    func localPage(_ page: Int) -> Int { floorMod(page, pageCount) }

    /// Playlist index of the first card of a global page.
    func firstItem(ofPage page: Int) -> Int { localPage(page) * cardsPerPage }

    /// The global page in the real copy that holds a playlist item.
    func realPage(containingItem index: Int) -> Int {
        guard pageCount > 0 else { return 0 }
        return pageCount + min(max(0, index), itemCount - 1) / cardsPerPage
    }

    /// Global page of a display slot.
    func page(ofSlot slot: Int) -> Int {
        floorDiv(slot, itemCount) * pageCount + item(atSlot: slot) / cardsPerPage
    }

    /// Resting position of a global page: the centre of its cards. A last, partial page is
    /// centred on the cards it has.
    func anchor(ofPage page: Int) -> Double {
        guard pageCount > 0 else { return 0 }
        let copy = floorDiv(page, pageCount), local = localPage(page)
        let cards = min(cardsPerPage, itemCount - local * cardsPerPage)
        return Double(copy * itemCount + local * cardsPerPage) + Double(cards - 1) / 2
    }

    /// The last page whose anchor is at or before `position`.
    func pageAtOrBefore(_ position: Double) -> Int {
        guard pageCount > 0, position.isFinite, abs(position) < 1e12 else { return pageCount }
        let copy = Int((position / Double(itemCount)).rounded(.down))
        let local = Int(((position - Double(copy * itemCount)) / Double(cardsPerPage)).rounded(.down))
        var page = copy * pageCount + min(max(0, local), pageCount - 1)
        while anchor(ofPage: page) > position { page -= 1 }
        while anchor(ofPage: page + 1) <= position { page += 1 }
        return page
    }

    /// The page whose anchor is nearest to `position` (ties go forward).
    func nearestPage(_ position: Double) -> Int {
        let below = pageAtOrBefore(position)
        return progress(position, from: below) >= 0.5 ? below + 1 : below
    }

    /// How far `position` is from page `page` towards page `page + 1`, 0...1 between them.
    func progress(_ position: Double, from page: Int) -> Double {
        let a = anchor(ofPage: page), b = anchor(ofPage: page + 1)
        return (position - a) / (b - a)
    }

    /// The same page moved into the real copy, and how far (in slots) the strip moved.
    func recentre(page: Int) -> (page: Int, shift: Int) {
        guard pageCount > 0 else { return (page, 0) }
        let copies = floorDiv(page, pageCount) - 1
        return (page - copies * pageCount, -copies * itemCount)
    }
}

/// Floor division and modulo, so negative slots and pages map the same way as positive ones.
func floorDiv(_ a: Int, _ b: Int) -> Int {
    guard b > 0 else { return 0 }
    return a >= 0 ? a / b : -((-a + b - 1) / b)
}

func floorMod(_ a: Int, _ b: Int) -> Int {
    guard b > 0 else { return 0 }
    return a - floorDiv(a, b) * b
}
