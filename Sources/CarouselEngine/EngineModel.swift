extension CarouselEngine {
    /// What the config, the item count and the viewport make: the strip, where cards go, the
    /// paging rules and the spring. Rebuilt together whenever those change.
    struct Model: Sendable {
        var strip: Strip
        var geometry: LayoutGeometry
        var rules: PagingRules
        var spring: Spring

        init(config: CarouselConfig, itemCount: Int, viewport: Size) {
            strip = Strip(itemCount: itemCount, cardsPerPage: config.cardsPerPage)
            geometry = LayoutGeometry(config: config, viewport: viewport)
            rules = PagingRules(config: config)
            spring = Spring(config: config)
        }
    }
}

extension Spring {
    /// The configured spring, kept finite even for values `validate()` would reject.
    init(config: CarouselConfig) {
        let response = config.gesture.springResponse.isFinite ? max(0.01, config.gesture.springResponse) : 0.5
        let damping = config.gesture.springDamping.isFinite ? min(max(0.01, config.gesture.springDamping), 100) : 0.825
        self.init(response: response, dampingFraction: damping)
    }
}
