/// Runs slow work (file I/O, device enumeration) on a thread of its own and hands the result
/// to the event loop with `execute`: the loop keeps drawing meanwhile, and no descriptor of the
/// task's own wakes it. One run at a time; a run is never cancelled: a task dropped meanwhile
/// just never delivers its result.
package final class BackgroundTask<Value> {
    private let name: String
    private let executor: LoopInbox
    /// From `start` until its `finished` has run on the loop.
    package private(set) var isRunning = false

    package init(name: String, loop: EventLoop) {
        self.name = name
        executor = loop.executor
    }

    /// Starts `work` on its thread unless a run is under way; `finished(result)` then runs on
    /// the loop. `work` must not touch the loop's state: it gets its inputs by value and returns
    /// everything it made. `finished` keeps its owner weakly: it is let go on the worker thread.
    package func start(_ work: @escaping () -> Value, finished: @escaping (Value) -> Void) {
        guard !isRunning else { return }
        isRunning = true
        let executor = self.executor
        DetachedThread.start(name: name, background: true) { [weak self] in
            let value = work()
            executor.execute { [weak self] in
                guard let self else { return }
                self.isRunning = false   // explicit: Swift 6.0 wants it in a closure nested in one
                finished(value)
            }
        }
    }
}
