import CarouselBackends
import CarouselCore
import CarouselEngine
import Glibc

/// Who hears what: every `AppEvent` of every part is handed out here, and only here.
extension DaemonRunner {
    func handle(_ event: AppEvent) {
        switch event {
        case .firstFrame(let carousel, let time, let restingOn):
            if let index = restingOn { carousels.plays.rested(carousel, index: index, at: time) }
            if carousel === carousels.lead { started(firstFrameAt: time) }
        case .engine(let carousel, let event):
            engineEvent(event, of: carousel)
        case .leftRest(let carousel, let cause, let time):
            carousels.plays.left(carousel, because: cause, at: time)
        case .restsAfterSwap(let carousel, let index, let cause, let time):
            carousels.plays.rested(carousel, index: index, at: time, cause: cause)
        case .resized:
            router.reconfigure(live.current.shell)
        case .outputEnded(.closed):
            Log.info("the compositor closed the window")
            stop(reason: "closed")
        case .outputEnded(.failed(let error)):
            Log.error("\(error); exiting (status 1)")
            publisher.notifier.status("\(error)")
            Glibc.exit(1)
        case .clockTrusted:
            operations.clockTrusted()
            publisher.publish()
        case .screensSwitched(let on):
            operations.screensSwitched(on: on)
            publisher.publish()
        case .daypart(let items):
            operations.switchDaypart(to: items)
            publisher.publish()
        case .tvPower, .statusChanged:
            publisher.publish()
        case .reloadAsked:
            reload.requestReload()
        case .configLoaded:
            reload.loaded(now: loop.time.now())
        }
    }

    /// The lead carousel's first frame ends the start: READY=1, and input opens.
    private func started(firstFrameAt time: Double) {
        let lead = carousels.lead
        // Only what came before the first commit: after a kept frame, they belong to the live frame.
        let committed = lead.startup.firstCommit ?? time
        let composed = lead.screens.compactMap(\.firstComposedAt).min()
        for (name, moment) in [("cards decoded", lead.startup.firstDecode), ("drawing", lead.startup.firstDraw), ("composed", composed)] {
            if let moment, moment < committed { startup.reached(name, at: moment) }
        }
        if let committed = lead.startup.firstCommit { startup.reached("committed", at: committed) }
        Log.info("first frame on screen \(startup.sinceExec(time)) after exec (\(startup)): "
                 + backend.outputs.map(\.summary).joined(separator: "; "))
        publisher.notifier.ready()
        publisher.publish()
        router.start(live.current.shell)
    }

    /// Releases (with their velocity) and taps go to the journal, as `carouseld replay` prints
    /// them; a carousel at rest says what it shows.
    private func engineEvent(_ event: CarouselEvent, of carousel: Carousel) {
        guard case .settled(let time, let index) = event else { return Log.info(carousel.prefix + EventReport.logLine(event)) }
        // Before a daypart's bridge strip is swapped for the new playlist: `index` is the bridge's.
        carousels.plays.rested(carousel, index: index, at: time)
        carousel.settled(now: loop.time.now())
        Log.info(carousel.prefix + carousel.showing)
        publisher.publish()
    }
}
