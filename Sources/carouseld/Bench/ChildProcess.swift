import CarouselConfig
import CarouselCore
import CarouselPixels
import Glibc

/// Runs a program and collects its standard output: the benchmark measures peak RSS in a fresh
/// carouseld process. posix_spawn, because Foundation's `Process` is not linked (full
/// Foundation brings ICU).
enum ChildProcess {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The exit status (or 128 + signal) and everything the child wrote to stdout. `quiet`:
    /// its stderr goes to /dev/null (a reference tool's own complaints; its status tells).
    static func run(_ path: String, _ arguments: [String], quiet: Bool = false) throws -> (status: Int32, output: String) {
        // Close-on-exec: the child gets only the dup2'd stdout, not the pipe's own ends.
        var ends: [CInt] = [-1, -1]
        try syscall("pipe") { pipe(&ends) }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let readEnd = OwnedDescriptor(adopting: ends[0])
        var pid: pid_t = 0
        let spawned = { () -> Int32 in
            // Our write end closes when this returns: the read below ends when the child's does.
            let writeEnd = OwnedDescriptor(adopting: ends[1])
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, writeEnd.rawValue, 1)
            if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
            let argv = ([path] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            return posix_spawn(&pid, path, &actions, nil, argv, environ)
        }()
        guard spawned == 0 else { throw Failure(description: "cannot start \(path): \(describe(errno: spawned))") }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while let n = try? chunk.withUnsafeMutableBytes({ try readEnd.read(into: $0) }),
              n > 0 {
            output += chunk[..<n]
        }
        var status: Int32 = 0
        try syscall("waitpid") { waitpid(pid, &status, 0) }
        // WIFEXITED / WEXITSTATUS are macros Swift cannot import: the low 7 bits hold the signal.
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (code, String(decoding: output, as: UTF8.self))
    }
}
