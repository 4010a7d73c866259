import CLibFuzzer
import Glibc

/// Stops the run so that libFuzzer reports the input as a crash: an invariant did not hold.
public func fuzzFailure(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    let text = Array("fuzz invariant violated (\(file):\(line)): \(message)\n".utf8)
    _ = text.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    abort()
}

/// The fuzz input as a file the daemon's own path-based readers can open: a file in /dev/shm,
/// unlinked at once and named `/proc/self/fd/N`. Made once per process, rewritten for every input.
public final class MemoryFile: @unchecked Sendable {
    public let fd: Int32
    public let path: String

    public init(name: String) {
        let file = "/dev/shm/carouseld-fuzz-\(getpid())-\(name)"
        fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { fuzzFailure("cannot create \(file): errno \(errno)") }
        unlink(file)
        path = "/proc/self/fd/\(fd)"
    }

    public func write(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else { fuzzFailure("cannot reset \(path)") }
        var done = 0
        while done < size {
            let n = Glibc.write(fd, data! + done, size - done)
            if n < 0 { if errno == EINTR { continue }; fuzzFailure("write to \(path) failed: errno \(errno)") }
            done += n
        }
    }
}

/// Reads the fuzz input a few bytes at a time; past the end every read is zero.
public struct ByteReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) { bytes = UnsafeBufferPointer(start: data, count: size) }

    public var isAtEnd: Bool { offset >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func uint16() -> UInt16 { UInt16(byte()) << 8 | UInt16(byte()) }

    /// A value in `range`, from one byte (0 → lower bound, 255 → upper bound).
    public mutating func unit(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(byte()) / 255
    }

    /// A value in `range`, from two bytes.
    public mutating func fine(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(uint16()) / 65535
    }

    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(byte()) % (range.upperBound - range.lowerBound + 1)
    }
}

/// The body of every fuzzer's main.swift: runs libFuzzer's driver (its flags and corpus
/// directories come from the command line) on `test`, and exits with its status.
public func runLibFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}
