import CarouselEngine
import FoundationEssentials
@testable import carouseld
import FuzzSupport

/// `render --input` touch-script JSON through the daemon's parser: frames come out in time
/// order with finite, non-negative times, or the script is refused with a reason.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let frames = try? TouchScript.parse(Data(UnsafeBufferPointer(start: data, count: size)), path: "fuzz.json") else { return 0 }
    var last = 0.0
    for frame in frames {
        guard frame.time.isFinite, frame.time >= last else { fuzzFailure("frame at \(frame.time) after \(last)") }
        last = frame.time
    }
    return 0
}

runLibFuzzer(fuzz)
