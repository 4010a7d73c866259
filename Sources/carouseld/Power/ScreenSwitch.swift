import CarouselBackends
import CarouselCore

/// Turns the screens on and off in the order a TV needs. Off: <Standby> to the TV now, the CRTC
/// blanked `offDelay` later (a TV that loses its signal first may show "no signal" instead of
/// going to standby). On: the CRTC first, then <Image View On> and <Active Source>, and the two
/// again `onDelay` later, since many TVs ignore CEC until they see a signal. Without a TV (no
/// CEC, or one that does not answer) the CRTC alone is switched, at once.
final class ScreenSwitch {
    private let displays: [SwitchableScreens]
    /// Panel backlights switched with the CRTCs (`backlight`; `PowerController` chooses them).
    private var backlights: [Backlight] = []
    let tv: TVLink?
    private let time: TimeSource
    private(set) var delays: (off: Double, on: Double)
    /// Blanks the CRTCs `delays.off` after <Standby>.
    private var blankTimer: LoopTimer?
    /// Sends <Image View On> and <Active Source>: on the loop's turn after the CRTC came back
    /// (after the posted frame that lights it), then once more `delays.on` later.
    private var wakeTimer: LoopTimer?
    private var wakesLeft = 0
    /// The CRTCs (and backlights) are off now.
    private var crtcsOff = false

    init(displays: [SwitchableScreens], tv: TVLink?, delays: (off: Double, on: Double), loop: EventLoop) {
        self.displays = displays; self.tv = tv; self.delays = delays
        time = loop.time
        guard tv != nil else { return }
        blankTimer = loop.timer("CRTC blank after CEC standby", owner: self) { owner, _ in owner.setDisplays(on: false) }
        wakeTimer = loop.timer("CEC wake", owner: self) { $0.wakeTV(now: $1) }
    }

    func configure(delays: (off: Double, on: Double)) { self.delays = delays }

    /// The screens go on or off (`PowerController`); also at start, so the TV follows.
    func turn(on: Bool) {
        let now = time.now()
        if on {
            blankTimer?.schedule(at: nil)
            setDisplays(on: true)
            return wakeTV()
        }
        wakesLeft = 0
        wakeTimer?.schedule(at: nil)
        guard let tv else { return setDisplays(on: false) }
        tv.standby()
        if delays.off > 0 && tv.isAnswering != false {
            blankTimer?.schedule(at: now + delays.off)
        } else {
            setDisplays(on: false)
        }
    }

    /// <Image View On> and <Active Source> on the loop's next turn and again `delays.on` later,
    /// the CRTCs left as they are (at start, lit).
    func wakeTV() {
        guard tv != nil else { return }
        wakesLeft = delays.on > 0 ? 2 : 1
        wakeTimer?.schedule(at: time.now())
    }

    /// At stop: the screen leaves the carousel, the TV goes to standby (the CRTC is given back
    /// by the outputs' restore). Waits a moment for the message to leave.
    func stop() {
        wakeTimer?.schedule(at: nil); blankTimer?.schedule(at: nil)
        tv?.standby()
        tv?.waitForTransmits(seconds: 1)
    }

    /// New backlights (a reload): the old ones back as they were, the new ones as the CRTCs are.
    func use(backlights new: [Backlight]) {
        if crtcsOff { for light in backlights { light.setPower(true) } }
        backlights = new
        if crtcsOff { for light in backlights { light.setPower(false) } }
    }

    /// Off: the light first, so a lit panel never shows the dark screen; on: the picture first.
    private func setDisplays(on: Bool) {
        crtcsOff = !on
        if !on { for light in backlights { light.setPower(false) } }
        for display in displays { display.setScreens(on: on) }
        if on { for light in backlights { light.setPower(true) } }
    }

    private func wakeTV(now: Double) {
        guard wakesLeft > 0, let tv else { return }
        wakesLeft -= 1
        tv.wake()
        if wakesLeft > 0 { wakeTimer?.schedule(at: now + delays.on) }
    }
}

/// What `ScreenSwitch` turns on and off: a carousel's screens, whose pacer commits the off state
/// to each as soon as it is free (`Carousel.setScreens(on:)`).
protocol SwitchableScreens: AnyObject {
    func setScreens(on: Bool)
}

extension Carousel: SwitchableScreens {}
