/// Which scanout buffer shows which card on the plane path (`CardFramebuffers` with dumb
/// buffers; pure and generic over the buffer, so its keeping is tested without a display).
///
/// A card's pixels are copied into a buffer once; every later frame moves the plane, not the
/// pixels. Buffers are keyed by what the card shows (`Card.content`), else by the card object.
/// A buffer stays while a committed frame may still scan it out: it is let go only after two
/// commits without it (the one on screen and the one queued). A buffer let go is kept, with its
/// picture, as a spare for the next card of its size. Each page change brings one card in as
/// one leaves: when the card coming in is a picture a spare still holds (a playlist of up to
/// five pictures, once round), that buffer shows it as it is, with nothing copied. Else, once
/// there are `buffersKept` buffers, the spare let go longest ago is filled again: a new
/// buffer's pages would cost the kernel a fault and a clearing each (at 1920x1080 most of a
/// page change's CPU on the plane path).
///
/// Each frame asks for the buffer of every card it shows, twice (tested, then applied): the
/// pool is a few entries (`buffersKept`) found by a scan, not a dictionary. Its books hold the
/// buffers as `any PlaneBuffer`, so they are concrete code in this module: a generic
/// dictionary, unspecialized across modules, cost a frame half its instructions in hashing and
/// type metadata (callgrind on vkms, about 9,900 a lookup).
package struct PlaneBufferPool<Buffer: PlaneBuffer> {
    private var entries: [PlaneBufferEntry] = []
    private var commits = 0
    /// Buffers no frame uses, the most recently let go first, with the picture each holds.
    private var spares: [(key: PlaneBufferKey, buffer: any PlaneBuffer)] = []
    /// Spares kept: at least two (a page change lets go of one card, a jump of a few more),
    /// more while fewer cards show, up to `buffersKept` buffers in all. The example's layout
    /// shows three cards at rest and two in the middle of a page change: five buffers hold a
    /// playlist of five pictures all round, and no more show than before (four cards of a frame
    /// and two spares).
    package static var sparesKept: Int { 2 }
    package static var buffersKept: Int { 5 }
    /// Cards copied into a buffer so far.
    package private(set) var copies = 0

    package init() {}

    /// The buffer showing `source`: its own, a spare that holds its picture, else a spare of its
    /// size or a new buffer (`make`), into which `fill` copies the card.
    package mutating func buffer<E: Error>(for source: Card, make: (_ width: Int, _ height: Int) throws(E) -> Buffer,
                                           fill: (Buffer) -> Void) throws(E) -> Buffer {
        if let index = entries.firstIndex(where: { $0.key.names(source) }) {
            entries[index].lastCommit = commits
            return Self.typed(entries[index].buffer)
        }
        let key = PlaneBufferKey(source)
        let buffer: Buffer
        if let kept = spares.firstIndex(where: { $0.key == key }) {
            buffer = Self.typed(spares.remove(at: kept).buffer)
        } else {
            // Until the buffers are `buffersKept`, a new one leaves the spares their pictures
            // (the first round of a short playlist); then the spare let go longest ago is filled.
            if entries.count + spares.count >= Self.buffersKept, let spare = takeSpare(source.width, source.height) {
                buffer = spare
            } else {
                buffer = try make(source.width, source.height)
            }
            fill(buffer)
            copies += 1
        }
        entries.append(PlaneBufferEntry(key: key, source: source.content == nil ? source : nil, buffer: buffer, lastCommit: commits))
        return buffer
    }

    /// Every buffer in the books was made by this pool's `make`.
    private static func typed(_ buffer: any PlaneBuffer) -> Buffer { unsafeDowncast(buffer, to: Buffer.self) }

    /// Readies buffers for the cards a page change may bring on screen (`sources`, the most
    /// likely first), while nothing moves: each is copied now into a spare that holds none of
    /// them, or a new buffer while there are fewer than `buffersKept`. In the middle of a page
    /// change the copy (a whole card) would take a frame's time; now it takes the rest's. As
    /// many as there are places for spares; a size no card on screen has is skipped.
    package mutating func prepare<E: Error>(_ sources: [Card], make: (_ width: Int, _ height: Int) throws(E) -> Buffer,
                                            fill: (Card, Buffer) -> Void) throws(E) {
        var wanted: [PlaneBufferKey] = []
        for source in sources where wanted.count < sparePlaces {
            let key = PlaneBufferKey(source)
            guard !entries.contains(where: { $0.key == key }), !wanted.contains(key),
                  entries.contains(where: { $0.buffer.hasSize(source.width, source.height) }) else { continue }
            wanted.append(key)
            if spares.contains(where: { $0.key == key }) { continue }
            let buffer: Buffer
            if entries.count + spares.count < Self.buffersKept {
                buffer = try make(source.width, source.height)
            } else if let spare = takeSpare(source.width, source.height, sparing: wanted) {
                buffer = spare
            } else {
                continue
            }
            fill(source, buffer)
            copies += 1
            spares.insert((key, buffer), at: 0)
        }
        // The readied pictures are let go last, the most likely last of all.
        let readied = wanted.compactMap { key in spares.first { $0.key == key } }
        spares = readied + spares.filter { !wanted.contains($0.key) }
    }

    /// A commit was made: buffers no frame on screen or queued uses any more become spares.
    package mutating func committed() {
        commits += 1
        var released = false
        for entry in entries where commits - entry.lastCommit > 2 {
            spares.insert((entry.key, entry.buffer), at: 0)
            released = true
        }
        guard released else { return }
        entries.removeAll { commits - $0.lastCommit > 2 }
        // A spare of a size no card shows (a preview's, a card size before a reload) would take
        // a place that a picture of the cards' size could keep.
        if !entries.isEmpty {
            spares.removeAll { spare in
                !entries.contains { $0.buffer.hasSize(spare.buffer.width, spare.buffer.height) }
            }
        }
        if spares.count > sparePlaces { spares.removeLast(spares.count - sparePlaces) }
    }

    /// Spares kept beside the buffers showing cards.
    private var sparePlaces: Int { max(Self.sparesKept, Self.buffersKept - entries.count) }

    /// The spare of this size let go longest ago, holding none of the pictures in `sparing`,
    /// taken out of the spares to be filled again.
    private mutating func takeSpare(_ width: Int, _ height: Int, sparing: [PlaneBufferKey] = []) -> Buffer? {
        guard let index = spares.lastIndex(where: { !sparing.contains($0.key) && $0.buffer.hasSize(width, height) }) else { return nil }
        return Self.typed(spares.remove(at: index).buffer)
    }

    /// Lets go of every buffer (the screen is composed, or gone).
    package mutating func removeAll() {
        entries.removeAll()
        spares.removeAll()
    }

    /// Buffers showing cards, and spares.
    package var count: (cards: Int, spares: Int) { (entries.count, spares.count) }
}

/// What a pool buffer shows: a card's content, else (a card not made by the decode worker) the
/// card itself. An entry with an object key holds the card, so the identity is not reused
/// while the buffer lives.
private enum PlaneBufferKey: Equatable {
    case content(CardContent)
    case object(ObjectIdentifier)

    init(_ card: Card) { self = card.content.map(Self.content) ?? .object(ObjectIdentifier(card)) }

    /// True when this is `card`'s key (asked per card and frame: made without building one).
    func names(_ card: Card) -> Bool {
        switch self {
        case .content(let content): return card.content == content
        case .object(let id): return card.content == nil && ObjectIdentifier(card) == id
        }
    }
}

/// A buffer showing a card, and the last commit that showed it.
private struct PlaneBufferEntry {
    let key: PlaneBufferKey
    /// A card without content, held so its identity (the key) is not reused while the
    /// buffer lives. A card with content is not held: the store lets go of it when it
    /// leaves the store's window, and its memory goes there, not in a frame's commit here.
    let source: Card?
    let buffer: any PlaneBuffer
    var lastCommit: Int
}

/// A scanout buffer a card can be copied into.
package protocol PlaneBuffer: AnyObject {
    var width: Int { get }
    var height: Int { get }
}

extension PlaneBuffer {
    func hasSize(_ width: Int, _ height: Int) -> Bool { self.width == width && self.height == height }
}
