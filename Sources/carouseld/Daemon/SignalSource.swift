import CInput
import Glibc

/// Signals delivered as readable data on a signalfd instead of asynchronous handlers, so
/// SIGTERM/SIGINT/SIGHUP are handled on the event loop like any other event.
final class SignalSource {
    let fd: Int32
    private var previousMask = sigset_t()

    /// Blocks `signals` for this thread (so they are queued, not delivered) and opens a signalfd.
    init(signals: [Int32]) throws {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        guard pthread_sigmask(SIG_BLOCK, &mask, &previousMask) == 0 else {
            throw SystemError(call: "pthread_sigmask", errno: Glibc.errno)
        }
        let flags = Int32(SFD_NONBLOCK) | Int32(SFD_CLOEXEC)
        do {
            fd = try syscall("signalfd") { signalfd(-1, &mask, flags) }
        } catch {
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            throw error
        }
    }

    deinit {
        close(fd)
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }

    /// The signals waiting on the descriptor (empty when none).
    func drain() -> [Int32] {
        var received: [Int32] = []
        var info = signalfd_siginfo()
        while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            received.append(Int32(info.ssi_signo))
        }
        return received
    }
}
