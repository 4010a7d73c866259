import CarouselCore
import CarouselEngine

/// The input half of a backend: its devices (libinput's, a compositor's seat, a test's), started
/// once the first frame is on screen (or at once when the screens start dark).
package protocol InputBackend: AnyObject {
    /// Starts the devices, once. What they ask for goes to `sink`, on the loop, and so do the
    /// lifts of contacts that sent nothing for `touch_timeout` (the input's own timer).
    func start(_ request: InputRequest, sink: @escaping InputSink)
    /// New settings, screen sizes or touch targets (a reload, a screen that changed).
    func reconfigure(_ request: InputRequest)
}

/// Where an input source's actions go, for every source alike: to the sink, and then the
/// stuck-touch timer is set to the source's next deadline. A contact that sent nothing for
/// `touch_timeout` is lifted by `expire` when that timer fires, and delivered the same way.
package final class InputDelivery {
    /// Held strongly: the loop keeps no reference to this delivery (its timer is unretained).
    private let loop: EventLoop
    private let sink: InputSink
    private let expire: (_ now: Double) -> [RoutedAction]
    private let nextDeadline: () -> Double?
    private var timer: LoopTimer?

    /// `expire` and `nextDeadline` ask the source's owner, held weakly (it keeps this delivery).
    package init<Owner: AnyObject>(loop: EventLoop, sink: @escaping InputSink, owner: Owner,
                                   expire: @escaping (Owner, _ now: Double) -> [RoutedAction],
                                   nextDeadline: @escaping (Owner) -> Double?) {
        self.loop = loop
        self.sink = sink
        self.expire = { [weak owner] now in owner.map { expire($0, now) } ?? [] }
        self.nextDeadline = { [weak owner] in owner.flatMap(nextDeadline) }
        timer = loop.timer("stuck touches", owner: self) { $0.deliver($0.expire($1)) }
    }

    package func deliver(_ actions: [RoutedAction]) {
        // Through the loop, after the source's handler: the source never calls up into the app.
        if !actions.isEmpty { loop.post(actions, to: sink) }
        timer?.schedule(at: nextDeadline())
    }
}
