import CarouselEngine
@testable import carouseld
import FuzzSupport
@testable import CarouselBackends

/// `libinput record` YAML through the daemon's parser; a recording that parses and spans at most
/// 20 s is then replayed through the daemon's input path and engine (`carouseld replay`), whose
/// events must name valid pictures. Parse and replay errors are fine, crashes and traps are not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
    guard let recording = try? RecordingParser.parse(text, path: "fuzz.yml") else { return 0 }
    let times = recording.devices.flatMap { $0.frames.map(\.time) }
    guard let first = times.min(), let last = times.max(), last - first <= 20 else { return 0 }
    let replay = Replay(config: CarouselConfig(), screen: Size(width: 800, height: 480), itemCount: 5)
    _ = try? replay.run(recording, emit: { line in
        if line.contains("nan") || line.contains("inf") { fuzzFailure("replay event \(line)") }
    })
    return 0
}

runLibFuzzer(fuzz)
