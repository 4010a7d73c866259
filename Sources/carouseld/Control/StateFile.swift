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
