import Glibc

/// Runs a program and collects its standard output: the benchmark measures peak RSS in a fresh
/// carouseld process. posix_spawn, because Foundation's `Process` is not linked (full
/// Foundation brings ICU).
enum ChildProcess {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The exit status (or 128 + signal) and everything the child wrote to stdout.
    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw Failure(description: "pipe: \(describe(errno: errno))") }
        // Close-on-exec: the child gets only the dup2'd stdout, not the pipe's own ends.
        for fd in pipeEnds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard spawned == 0 else { throw Failure(description: "cannot start \(path): \(describe(errno: spawned))") }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(pipeEnds[0], &chunk, chunk.count)
            if n > 0 { output += chunk[..<n] } else if n < 0 && errno == EINTR { continue } else { break }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are macros Swift cannot import: the low 7 bits hold the signal.
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (code, String(decoding: output, as: UTF8.self))
    }
}
