import CLinux
import Glibc

/// Signals delivered as readable data on a signalfd instead of asynchronous handlers, so
/// SIGTERM/SIGINT/SIGHUP are handled on the event loop like any other event.
package final class SignalSource {
    private let signalFD: OwnedDescriptor
    private var previousMask = sigset_t()

    /// Blocks `signals` for this thread (so they are queued, not delivered) and opens a signalfd.
    package init(signals: [Int32]) throws {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        guard pthread_sigmask(SIG_BLOCK, &mask, &previousMask) == 0 else {
            throw SystemError(call: "pthread_sigmask", errno: Glibc.errno)
        }
        let flags = Int32(SFD_NONBLOCK) | Int32(SFD_CLOEXEC)
        do {
            signalFD = try OwnedDescriptor("signalfd") { signalfd(-1, &mask, flags) }
        } catch {
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            throw error
        }
    }

    /// The signalfd closes after this (stored properties go after deinit's body).
    deinit { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }

    /// Readable while signals are queued.
    package var fd: Int32 { signalFD.rawValue }

    /// The signals waiting on the descriptor (empty when none).
    package func drain() -> [Int32] {
        var received: [Int32] = []
        var info = signalfd_siginfo()
        while signalFD.readRecord(&info) {
            received.append(Int32(info.ssi_signo))
        }
        return received
    }
}
