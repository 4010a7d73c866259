import CarouselCore
import Glibc

/// `state.json` beside the control socket, rewritten on every settle and state change, so a
/// monitoring agent reads what is on screen without talking to the daemon. Written whole
/// (`WholeFile`): a reader sees the old or the new, never half.
/// It lives on /run (tmpfs): the write does not wait for a disk.
final class StateFile {
    let path: String
    private let problems = WriteProblems()

    init(path: String) { self.path = path }

    func write(_ status: DaemonStatus) {
        problems.note(WholeFile.write(ControlReply.jsonLine(status), to: path, mode: 0o640), path: path)
    }

    func remove() { unlink(path) }
}

/// A file rewritten again and again (state.json, the metrics file) that cannot be written says
/// so once, with the reason, and once more when it can be again: not on every rewrite.
final class WriteProblems {
    private var failing: String?

    func note(_ result: Result<Void, WholeFile.Failure>, path: String) {
        switch result {
        case .success:
            if failing != nil { Log.notice("\(path): written again") }
            failing = nil
        case .failure(let failure):
            if failing != failure.description {
                Log.warning("writing \(path): \(failure) (said once until it changes)")
            }
            failing = failure.description
        }
    }
}
