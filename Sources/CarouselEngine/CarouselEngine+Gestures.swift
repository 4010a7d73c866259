/// What the engine does with the gesture recogniser's actions: a press catches the strip, a
/// drag moves it, a lift pages by the release velocity (or taps), a cancel springs back.
extension CarouselEngine {
    mutating func apply(_ action: GestureAction, _ events: inout [CarouselEvent]) {
        guard itemCount > 0 else { return }
        switch action {
        case .press:
            // Catch the strip where it is: no jump, and a drag continues from here.
            let caught = animation != nil
            heldPosition = state().position
            animation = nil
            gesture = ActiveGesture(startPosition: heldPosition,
                                    startPage: caught ? model.strip.nearestPage(heldPosition) : page,
                                    caught: caught)
        case .drag(let offset):
            guard let g = gesture else { return }
            let clamped = min(max(offset, -1e7), 1e7)
            heldPosition = g.startPosition - clamped / model.geometry.step
        case .lift(let lift):
            guard let g = gesture else { return }
            gesture = nil
            release(g, lift, &events)
        case .cancel:
            guard let g = gesture else { return }
            gesture = nil
            // A cancelled touch that never moved the strip changes nothing.
            if !g.caught, heldPosition == model.strip.anchor(ofPage: g.startPage) { return }
            springTo(page: g.startPage, from: heldPosition, velocity: 0, at: now)
        }
    }

    private mutating func release(_ g: ActiveGesture, _ lift: GestureAction.Lift, _ events: inout [CarouselEvent]) {
        switch lift {
        case .drag(let measuredX, let measuredY):
            // Jittery timestamps can fake absurd speeds; no finger outruns Android's 8000 dp/s cap.
            let vx = PagingRules.clampVelocity(measuredX), vy = PagingRules.clampVelocity(measuredY)
            let target = model.rules.releaseTarget(on: model.strip, position: heldPosition, startPosition: g.startPosition,
                                             startPage: g.startPage, velocityX: vx)
            // The finger moving left moves the strip forward.
            springTo(page: target, from: heldPosition, velocity: -vx / model.geometry.step, at: now)
            events.append(.release(time: now, velocityX: vx, velocityY: vy,
                                   from: model.strip.firstItem(ofPage: g.startPage), to: model.strip.firstItem(ofPage: target)))
        case .tap(let x, let y) where !g.caught:
            guard let slot = model.geometry.slot(at: x, y, on: model.strip, position: heldPosition) else { return }
            let tapped = model.strip.page(ofSlot: slot)
            if tapped == page {
                events.append(.activated(time: now, index: model.strip.item(atSlot: slot)))
            } else {
                springTo(page: tapped, from: heldPosition, velocity: 0, at: now)
                events.append(.tap(time: now, index: model.strip.firstItem(ofPage: tapped)))
            }
        case .tap, .hold:
            if g.caught {
                let target = model.strip.loops ? model.strip.nearestPage(heldPosition) : model.strip.realPages.lowerBound
                springTo(page: target, from: heldPosition, velocity: 0, at: now)
            }
        }
    }
}
