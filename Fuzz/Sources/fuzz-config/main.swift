@testable import carouseld
import FuzzSupport
@testable import CarouselConfig

/// carouseld.conf bytes through the daemon's parser: every input ends as a config or as at least
/// one `file:line: key: message` problem, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let result = ConfigFileParser.parse(bytes: bytes, file: "carouseld.conf")
    if result.problems.isEmpty {
        let issues = result.values.validate()
        if !issues.isEmpty { fuzzFailure("the parser accepted a config that does not validate: \(issues)") }
    }
    for problem in result.problems + result.warnings {
        if let line = problem.line, line < 1 { fuzzFailure("problem on line \(line): \(problem)") }
    }
    return 0
}

runLibFuzzer(fuzz)
