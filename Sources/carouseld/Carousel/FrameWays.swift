import CarouselPixels

/// The ways a screen's frame reaches the glass, tried cheapest first, as weston's
/// `drm_output_propose_state` tries planes before its renderer: the strip panned in the display
/// engine, then the cards on overlay planes, then composed on the CPU, which cannot be refused.
enum FrameWay: Hashable {
    case panned, planes
}

/// What a screen's output refused for good, one reason per way: that way is not offered again
/// until the screen or its renderer changes (a new memo). Offering costs work a frame must not
/// do twice: a wide buffer for a pan, and for planes a look-up in the image store that also
/// steers its decodes.
struct Refusals {
    private var reasons: [FrameWay: ComposeReason] = [:]

    func reason(_ way: FrameWay) -> ComposeReason? { reasons[way] }
    func allows(_ way: FrameWay) -> Bool { reasons[way] == nil }
    mutating func refuse(_ way: FrameWay, because reason: ComposeReason) { reasons[way] = reason }
}
